// A local-only app: the store product alone, with no networking and no GraphQL library linked
// (`scripts/check-local-store-links.sh` builds this and checks the binary).
//
//   swift run LocalOnlyNotes [database file]
import DeltaSyncLocalStore
import Foundation

let location: DataStore.Location = CommandLine.arguments.count > 1 ? .file(URL(fileURLWithPath: CommandLine.arguments[1])) : .inMemory
let dataStore = try DataStore(models: DeltaSyncModels.self, location: location)
try await dataStore.save(Note(title: "Buy milk"))
try await dataStore.save(Note(title: "Call Ada", pinned: true))
for note in try await dataStore.query(Note.self, where: Note.keys.pinned == true) {
    print("pinned: \(note.title)")
}
print("notes: \(try await dataStore.query(Note.self).count), pending mutations: \(try await dataStore.pendingMutations().count)")
