/// A stream whose request was decided and whose answer the connection still owes: a delay runs
/// until its timer fires, or a hang lasts until the client resets the stream or the connection
/// closes.
struct OwedStream: Sendable {
    /// The answer decided for it (its ids are its record's).
    var answer: APNSAnswer
    /// What happens when its delay ends.
    var fate: RequestDecision.Fate
    /// What its answer is counted by.
    var labels: AnswerLabels
    /// A hang: no timer runs.
    var hung: Bool
    /// The request, when a success to it has an effect that runs when it is answered.
    var held: HeldRequest? = nil
    /// Its record's sequence number in the store (`recordStored`), 0 until told.
    var record: UInt64 = 0
}

/// The streams a connection owes an answer, in stream order.
///
/// The buffer is allocated when a connection first owes a stream (a delay or a hang) and kept
/// when it empties; the common request is never owed, so it only ever reads `isEmpty`. Ending
/// owed streams in stream order needs no sorted copy.
struct OwedStreams: Sendable {
    /// Sorted by stream id, one entry per stream.
    private var entries: [(streamID: Int32, stream: OwedStream)] = []

    /// Whether no stream is owed.
    var isEmpty: Bool { entries.isEmpty }

    /// The owed stream `streamID`, if it is owed.
    subscript(streamID: Int32) -> OwedStream? {
        let index = firstIndex(notBelow: streamID)
        guard index < entries.count, entries[index].streamID == streamID else { return nil }
        return entries[index].stream
    }

    /// Owes `stream` on `streamID`, in place of what was owed on it.
    mutating func insert(_ stream: OwedStream, for streamID: Int32) {
        let index = firstIndex(notBelow: streamID)
        if index < entries.count, entries[index].streamID == streamID {
            entries[index].stream = stream
        } else {
            entries.insert((streamID, stream), at: index)
        }
    }

    /// No longer owes `streamID`: what was owed on it, if anything.
    mutating func remove(_ streamID: Int32) -> OwedStream? {
        let index = firstIndex(notBelow: streamID)
        guard index < entries.count, entries[index].streamID == streamID else { return nil }
        return entries.remove(at: index).stream
    }

    /// Notes that the record of owed stream `streamID` was stored as `sequence`; `false` when
    /// the stream is not owed.
    mutating func noteRecord(_ sequence: UInt64, for streamID: Int32) -> Bool {
        let index = firstIndex(notBelow: streamID)
        guard index < entries.count, entries[index].streamID == streamID else { return false }
        entries[index].stream.record = sequence
        return true
    }

    /// Ends the owed streams that `ends` picks, handing each to `each` in stream order.
    mutating func removeAll(where ends: (Int32) -> Bool, _ each: (Int32, OwedStream) -> Void) {
        guard !entries.isEmpty else { return }
        for entry in entries where ends(entry.streamID) { each(entry.streamID, entry.stream) }
        entries.removeAll { ends($0.streamID) }
    }

    /// The index of the first entry whose stream id is `streamID` or above (binary search).
    private func firstIndex(notBelow streamID: Int32) -> Int {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].streamID < streamID { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
