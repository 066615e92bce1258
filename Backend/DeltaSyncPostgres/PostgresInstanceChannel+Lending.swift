import PostgresNIO

// The listening connection lent to the sender. postgres-nio never answers a statement written to
// a connection after it closed (the statement's promise is dropped with the closed channel's
// handlers), so a send must not start on a connection the listener is closing, and the listener
// must not close it under a send in flight: the sender would wait for ever, and a server's
// shutdown with it.
extension PostgresInstanceChannel {
    /// The listening connection, lent until ``giveBack()``; `nil` while there is none, while it
    /// is being retired, or once it closed by itself.
    func borrowListening() -> PostgresConnection? {
        state.withLockedValue { state in
            guard let connection = state.connection, !connection.isClosed else { return nil }
            state.borrowers += 1
            return connection
        }
    }

    /// Ends a loan of ``borrowListening()``; the last one lets a waiting retirement go on.
    func giveBack() {
        let retiring = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            state.borrowers -= 1
            guard state.borrowers == 0 else { return nil }
            defer { state.retiring = nil }
            return state.retiring
        }
        retiring?.resume()
    }

    /// Lends the listening connection no more, and returns once every loan ended: then it may
    /// be closed. (A statement in flight on a live connection is answered or fails with it.)
    func retireListening() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let wait = state.withLockedValue { state -> Bool in
                state.connection = nil
                guard state.borrowers > 0 else { return false }
                state.retiring = continuation
                return true
            }
            if !wait { continuation.resume() }
        }
    }
}
