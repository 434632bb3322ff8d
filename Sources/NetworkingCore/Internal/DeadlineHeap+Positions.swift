extension DeadlineHeap {
    /// Where each pending id sits in the heap: an open-addressing table (linear probing, a multiplicative hash,
    /// removal by shifting back the entries after a freed slot, so no tombstone is left).
    ///
    /// The heap updates an entry's place on every step of a sift, several times per call: with a `Dictionary`
    /// (SipHash on each lookup) the table cost more than the heap. Ids are never 0, which marks a free slot.
    struct Positions {
        private var ids: [UInt64] = []
        private var places: [Int] = []
        /// How far to shift a hash to index the table: 64 minus the power of two of its size.
        private var shift = 64
        private(set) var count = 0

        /// Where `id` is, if it is pending.
        func place(of id: UInt64) -> Int? {
            guard count > 0 else { return nil }
            var slot = self.slot(of: id)
            while true {
                let found = ids[slot]
                if found == id { return places[slot] }
                if found == 0 { return nil }
                slot = (slot + 1) & (ids.count - 1)
            }
        }

        /// Records `id` at `place`, adding or updating it.
        mutating func set(_ id: UInt64, at place: Int) {
            if (count + 1) * 2 > ids.count { grow() }
            var slot = self.slot(of: id)
            while true {
                let found = ids[slot]
                if found == id {
                    places[slot] = place
                    return
                }
                if found == 0 {
                    ids[slot] = id
                    places[slot] = place
                    count += 1
                    return
                }
                slot = (slot + 1) & (ids.count - 1)
            }
        }

        /// Forgets `id`; returns where it was, `nil` when it was not pending.
        mutating func remove(_ id: UInt64) -> Int? {
            guard count > 0 else { return nil }
            let mask = ids.count - 1
            var slot = self.slot(of: id)
            while ids[slot] != id {
                if ids[slot] == 0 { return nil }
                slot = (slot + 1) & mask
            }
            let place = places[slot]
            // Shift back each following entry that may sit in the freed slot (its home is not between the two).
            var free = slot
            var next = (slot + 1) & mask
            while ids[next] != 0 {
                let home = self.slot(of: ids[next])
                if (next > free && (home <= free || home > next)) || (next < free && home <= free && home > next) {
                    ids[free] = ids[next]
                    places[free] = places[next]
                    free = next
                }
                next = (next + 1) & mask
            }
            ids[free] = 0
            count -= 1
            return place
        }

        /// Empties the table, giving its storage back.
        mutating func removeAll() {
            self = Positions()
        }

        private func slot(of id: UInt64) -> Int {
            Int(truncatingIfNeeded: (id &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift))
        }

        private mutating func grow() {
            let old = self
            let size = max(16, ids.count * 2)
            ids = Array(repeating: 0, count: size)
            places = Array(repeating: 0, count: size)
            shift = 64 - size.trailingZeroBitCount
            count = 0
            for (id, place) in zip(old.ids, old.places) where id != 0 { set(id, at: place) }
        }
    }
}
