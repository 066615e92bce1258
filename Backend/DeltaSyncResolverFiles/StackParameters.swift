/// The values a custom stack's `Ref`s and `${...}` name, as Amplify's root stack passes them:
/// the API's id and name, the environment, the deployment bucket and key (whose paths lead to
/// the project's `resolvers/` folder here) and the pseudo parameters.
struct StackParameters: Sendable {
    var values: [String: String]

    /// - Parameters:
    ///   - apiName: the API folder's name.
    ///   - environmentName: Amplify's environment (`${env}`), `NONE` outside one.
    ///   - apiID: `AppSyncApiId`.
    init(apiName: String, environmentName: String, apiID: String = "deltasynclocal", region: String = "us-east-1") {
        values = [
            "AppSyncApiId": apiID, "AppSyncApiName": apiName, "env": environmentName,
            "S3DeploymentBucket": Self.bucket, "S3DeploymentRootKey": Self.rootKey,
            "AWS::Region": region, "AWS::AccountId": "000000000000", "AWS::Partition": "aws",
            "AWS::URLSuffix": "amazonaws.com", "AWS::StackName": "\(apiName)-CustomResources",
        ]
    }

    /// The deployment bucket and key DeltaSync gives a stack: template locations under them are
    /// files of the API folder.
    static let bucket = "deltasync-deployment"
    static let rootKey = "deltasync"
}
