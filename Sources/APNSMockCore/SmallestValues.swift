/// The `capacity` smallest values offered, kept in a bounded max-heap: one pass over a large
/// unordered collection gives its first page in order at the cost of sorting a page, not the
/// collection (a channel's subscribed tokens, the registered devices).
public struct SmallestValues<Element: Comparable> {
    /// The most values kept.
    public let capacity: Int
    private var heap: [Element] = []

    /// An empty heap keeping at most `capacity` values.
    public init(capacity: Int) {
        self.capacity = capacity
        heap.reserveCapacity(Swift.min(capacity, 1 << 16))
    }

    /// Keeps `value` when fewer than `capacity` are kept or it is smaller than the largest kept.
    public mutating func offer(_ value: Element) {
        if heap.count < capacity {
            heap.append(value)
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard heap[parent] < heap[child] else { break }
                heap.swapAt(parent, child)
                child = parent
            }
        } else if let largest = heap.first, value < largest {
            heap[0] = value
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var largestIndex = parent
                if left < heap.count, heap[left] > heap[largestIndex] { largestIndex = left }
                if right < heap.count, heap[right] > heap[largestIndex] { largestIndex = right }
                guard largestIndex != parent else { break }
                heap.swapAt(parent, largestIndex)
                parent = largestIndex
            }
        }
    }

    /// The values kept, ascending.
    public func sorted() -> [Element] { heap.sorted() }

    /// Up to `limit` of `values` in ascending order, those after `after` only; `more` says
    /// whether values follow the last one returned.
    public static func page(
        of values: some Sequence<Element>, after: Element?, limit: Int
    ) -> (values: [Element], more: Bool) {
        guard limit > 0 else { return ([], false) }
        var smallest = SmallestValues(capacity: limit + 1)
        if let after {
            for value in values where value > after { smallest.offer(value) }
        } else {
            for value in values { smallest.offer(value) }
        }
        let page = smallest.sorted()
        return page.count > limit ? (Array(page.prefix(limit)), true) : (page, false)
    }
}
