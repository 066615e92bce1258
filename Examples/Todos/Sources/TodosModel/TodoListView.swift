#if canImport(SwiftUI)
import SwiftUI

/// The Todos list on Apple platforms: reads the live query, so it redraws when a todo changes
/// here or on another device.
public struct TodoListView: View {
    let list: TodoList
    @State private var newTitle = ""
    @Environment(\.scenePhase) private var scenePhase

    public init(list: TodoList) {
        self.list = list
    }

    public var body: some View {
        List {
            Section {
                TextField("New todo", text: $newTitle)
                    .onSubmit {
                        let title = newTitle
                        newTitle = ""
                        Task { try? await list.add(title) }
                    }
            }
            ForEach(list.todos.items) { todo in
                Button {
                    Task { try? await list.toggle(todo) }
                } label: {
                    Label(todo.title, systemImage: todo.done ? "checkmark.circle.fill" : "circle")
                }
                .swipeActions { Button("Delete", role: .destructive) { Task { try? await list.delete(todo) } } }
            }
        }
        .overlay { if !list.todos.isSynced { ProgressView() } }
        .task { try? await list.start() }
        .onChange(of: scenePhase) { _, phase in
            if phase == .active { list.resume() }
        }
    }
}
#endif
