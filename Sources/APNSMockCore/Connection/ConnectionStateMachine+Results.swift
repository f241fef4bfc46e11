extension ConnectionStateMachine {
    /// What `outputRequested()` says.
    public enum OnOutputRequested: Sendable, Equatable {
        /// HTTP/2 bytes may go out.
        case writeHTTP2
        /// Not yet (no ALPN h2, no preface): send only what TLS needs.
        case holdHTTP2
    }

    /// What `stepEnded(http2Active:)` says.
    public enum OnStepEnded: Sendable, Equatable {
        /// The connection goes on.
        case serving
        /// The HTTP/2 session is done: close after the last bytes.
        case closeAfterFlush
        /// It is closing already (the close was an action, or is under way): nothing to do.
        case closing
    }

    /// What `close(_:)` did.
    public enum OnClose: Sendable, Equatable {
        /// The close began here: close the connection now.
        case closeNow
        /// It was closing already: nothing to do.
        case alreadyClosing
    }

    /// What `shutdown(debugData:into:)` did.
    public enum OnShutdown: Sendable, Equatable {
        /// GOAWAY NO_ERROR goes out (appended); the streams it covers are still answered.
        case goAwaySent
        /// The connection spoke no HTTP/2 yet: it closes (appended).
        case closeNow
        /// It was draining or closing already: nothing appended.
        case alreadyEnding
    }

    /// What `handshakeTimeoutElapsed(into:)` decided.
    public enum OnHandshakeTimeout: Sendable, Equatable {
        /// The connection had not reached HTTP/2: it closes (appended).
        case close
        /// It serves (or is ending): left alone.
        case keepOpen
    }

    /// What `idleTimeoutElapsed(streamsBeingReceived:debugData:into:)` decided.
    public enum OnIdleTimeout: Sendable, Equatable {
        /// A graceful end (GOAWAY, or a close before HTTP/2) was appended.
        case ended
        /// A stream waits or is being received, or the connection is ending already.
        case keptOpen
    }

    /// What `recordStored(streamID:sequence:)` did.
    public enum OnRecordStored: Sendable, Equatable {
        /// The waiting stream will complete that record.
        case noted
        /// The stream no longer waits: nothing to note.
        case notWaiting
    }

    /// What `timerFired(streamID:now:into:)` did.
    public enum OnTimerFired: Sendable, Equatable {
        /// The stream's answer (or its fault's fate) was appended.
        case performActions
        /// The stream no longer waits (answered, refused, reset or closed since): nothing appended.
        case nothingDue
    }

    /// What `streamsClosed(_:into:)` did.
    public enum OnStreamsClosed: Sendable, Equatable {
        /// Streams that waited: their records are completed as cancelled (appended).
        case performActions
        /// The machine owed none of them anything.
        case nothingOwed
    }

    /// What `effectApplied(streamID:outcome:into:)` did.
    public enum OnEffectApplied: Sendable, Equatable {
        /// The stream's answer, finished with the effect, and what follows were appended.
        case performActions
        /// No effect was pending for that stream.
        case nothingOwed
    }

    /// What `connectionClosed(error:into:)` says.
    public struct OnConnectionClosed: Sendable, Equatable {
        /// Who closed the connection and why: the server's reason when it began closing, else the client's.
        public var reason: CloseReason
    }

    /// How the HTTP/2 session failed in the read being handled (`http2Failed(_:into:)`).
    public enum HTTP2Failure: Sendable, Equatable {
        /// libnghttp2 ended the session with a connection error (its GOAWAY is queued).
        case library
        /// More streams than the acknowledged limit, with `stream-limit-goaway` on.
        case streamLimit
        /// HEADERS on `streamID`, below stream `highest` already opened.
        case streamIDWentBack(Int32, highest: Int32)
        /// Excessive load.
        case flood(ClientFlood)
    }

    /// What `http2Failed(_:into:)` did.
    public enum OnHTTP2Failure: Sendable, Equatable {
        /// Nothing more is answered; the connection closes once what was queued is out (appended).
        case closeAfterFlush
        /// It was closing already: nothing appended.
        case alreadyClosing
    }
}
