// The Todos app's entry point, for an Xcode iOS or macOS app target that links the TodosModel
// library (Examples/Todos/Sources/TodosModel). Not part of the package: SwiftPM builds no app
// bundles. Put amplify_outputs.json (or point it at `deltasync serve`) in the app's resources.
import DeltaSyncClient
import SwiftUI
import TodosModel

@main
struct TodosApp: App {
    @State private var list: TodoList? = {
        guard let file = Bundle.main.url(forResource: "amplify_outputs", withExtension: "json"),
            let data = try? Data(contentsOf: file),
            let endpoint = try? SyncEndpoint(amplifyConfiguration: data)
        else { return nil }
        return try? TodoList(endpoint: endpoint, location: .applicationSupport("Todos/todos.sqlite"))
    }()

    var body: some Scene {
        WindowGroup {
            if let list {
                NavigationStack { TodoListView(list: list).navigationTitle("Todos") }
            } else {
                Text("Add amplify_outputs.json to the app's resources.")
            }
        }
    }
}
