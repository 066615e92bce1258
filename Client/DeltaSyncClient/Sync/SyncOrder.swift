import DeltaSyncModelSchema

extension AmplifySchema {
    /// The models in the order their sync queries run: every model after the models it belongs
    /// to, as Amplify orders them, so a child's parent is on the device first. Schema order
    /// otherwise.
    var syncOrder: [ModelSchema] {
        var parents: [String: [String]] = [:]
        for model in models {
            for field in model.relationFields {
                guard let relation = field.relation else { continue }
                switch relation.kind {
                case .belongsTo: parents[model.name, default: []].append(relation.relatedModel)
                case .hasMany, .manyToMany: parents[relation.relatedModel, default: []].append(model.name)
                case .hasOne: continue
                }
            }
        }
        var ordered: [ModelSchema] = []
        var visited: Set<String> = []
        func visit(_ model: ModelSchema) {
            guard visited.insert(model.name).inserted else { return }
            for parent in parents[model.name] ?? [] where parent != model.name {
                if let parentModel = self.model(named: parent) { visit(parentModel) }
            }
            ordered.append(model)
        }
        for model in models { visit(model) }
        return ordered
    }
}
