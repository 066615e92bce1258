import DeltaSyncStorage

extension PostgresItemStore: SharedItemStore {
    /// A member of the channel `name` of every process on this store's PostgreSQL schema.
    public func instanceChannel(named name: String) -> any InstanceChannel {
        PostgresInstanceChannel(name: name, store: self)
    }

    public var outage: String? { reachability.down }
}
