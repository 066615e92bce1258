import DeltaSyncCore
import Testing

@Suite struct PredicateTests {
    let post: Item = ["id": "1", "title": "Hello world", "rating": 4, "views": 10.5, "tags": ["a", "b"], "draft": false]

    @Test func comparisonsFollowDynamoDBTypeRules() throws {
        #expect(try QueryPredicate(filter: ["rating": ["gt": 3]]).matches(post))
        #expect(try QueryPredicate(filter: ["rating": ["ge": 4, "le": 4]]).matches(post))
        #expect(try !QueryPredicate(filter: ["rating": ["lt": 4]]).matches(post))
        // A number never equals a string, even with the same text.
        #expect(try !QueryPredicate(filter: ["rating": ["eq": "4"]]).matches(post))
        #expect(try QueryPredicate(filter: ["views": ["between": [10, 11]]]).matches(post))
        #expect(try QueryPredicate(filter: ["draft": ["eq": false]]).matches(post))
    }

    @Test func missingAttributeFailsComparisonsButPassesNe() throws {
        #expect(try !QueryPredicate(filter: ["body": ["eq": "x"]]).matches(post))
        #expect(try QueryPredicate(filter: ["body": ["ne": "x"]]).matches(post))
        #expect(try QueryPredicate(filter: ["body": ["attributeExists": false]]).matches(post))
        #expect(try QueryPredicate(filter: ["title": ["attributeExists": true]]).matches(post))
        #expect(try QueryPredicate(filter: ["body": ["notContains": "x"]]).matches(post))
    }

    @Test func stringAndListOperators() throws {
        #expect(try QueryPredicate(filter: ["title": ["beginsWith": "Hell"]]).matches(post))
        #expect(try QueryPredicate(filter: ["title": ["contains": "o w"]]).matches(post))
        #expect(try QueryPredicate(filter: ["tags": ["contains": "b"]]).matches(post))
        #expect(try QueryPredicate(filter: ["tags": ["notContains": "c"]]).matches(post))
        #expect(try QueryPredicate(filter: ["title": ["size": ["eq": 11]]]).matches(post))
        #expect(try QueryPredicate(filter: ["tags": ["size": ["between": [1, 2]]]]).matches(post))
        #expect(try QueryPredicate(filter: ["tags": ["attributeType": "list"]]).matches(post))
        #expect(try QueryPredicate(filter: ["rating": ["in": [1, 4]]]).matches(post))
        #expect(try QueryPredicate(filter: ["rating": ["notIn": [1, 4]]]).matches(post) == false)
    }

    @Test func groupsCombine() throws {
        let p = try QueryPredicate(filter: [
            "or": [["rating": ["eq": 1]], ["and": [["title": ["beginsWith": "H"]], ["tags": ["contains": "a"]]]]],
            "not": ["draft": ["eq": true]],
        ])
        #expect(p.matches(post))
        #expect(!p.matches(post.merging(["draft": true]) { $1 }))
    }

    @Test func malformedFilterIsAnInvalidArgument() {
        #expect(throws: AppSyncError.self) { try QueryPredicate(filter: ["rating": ["near": 3]]) }
        #expect(throws: AppSyncError.self) { try QueryPredicate(filter: ["rating": ["between": [1]]]) }
        #expect(throws: AppSyncError.self) { try QueryPredicate(filter: .string("rating > 3")) }
    }
}
