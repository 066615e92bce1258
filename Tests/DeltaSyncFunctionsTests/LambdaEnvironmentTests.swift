import DeltaSyncCore
import DeltaSyncFunctions
import Foundation
import Testing

/// The environment of a local function process, and the env files laid over it.
@Suite struct LambdaEnvironmentTests {
    static let server = ["PATH": "/opt/node/bin:/usr/bin", "HOME": "/home/dev", "AWS_ACCESS_KEY_ID": "AKIAREAL", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_PROFILE": "work"]

    @Test func lambdaAndAmplifyVariables() throws {
        let environment = LambdaEnvironment(
            functionName: "calc", handler: "index.handler", functionDirectory: "/app/amplify/backend/function/calc/src",
            region: "eu-west-1", environmentName: "dev", serverEnvironment: Self.server)
        let variables = try environment.variables(now: Date(timeIntervalSince1970: 1_714_521_600))  // 2024-05-01
        #expect(variables["AWS_LAMBDA_FUNCTION_NAME"] == "calc")
        #expect(variables["AWS_LAMBDA_FUNCTION_VERSION"] == "$LATEST")
        #expect(variables["AWS_LAMBDA_FUNCTION_MEMORY_SIZE"] == "128")
        #expect(variables["AWS_REGION"] == "eu-west-1")
        #expect(variables["AWS_DEFAULT_REGION"] == "eu-west-1")
        #expect(variables["REGION"] == "eu-west-1")
        #expect(variables["ENV"] == "dev")
        #expect(variables["AWS_EXECUTION_ENV"] == "AWS_Lambda_deltasync")
        #expect(variables["AWS_LAMBDA_LOG_GROUP_NAME"] == "/aws/lambda/calc")
        #expect(variables["AWS_LAMBDA_LOG_STREAM_NAME"] == "2024/05/01/[$LATEST]deltasync")
        #expect(variables["_HANDLER"] == "index.handler")
        #expect(variables["LAMBDA_TASK_ROOT"] == "/app/amplify/backend/function/calc/src")
        #expect(variables["LAMBDA_RUNTIME_DIR"] == "/app/amplify/backend/function/calc/src")
        #expect(variables["TZ"] == "UTC")
        #expect(variables["LANG"] == "en_US.UTF-8")
        #expect(variables["PATH"] == "/opt/node/bin:/usr/bin")
        #expect(variables["HOME"] == "/home/dev")
        // The developer's credentials never reach a local function.
        #expect(variables["AWS_ACCESS_KEY_ID"] == nil)
        #expect(variables["AWS_SECRET_ACCESS_KEY"] == nil)
        #expect(variables["AWS_PROFILE"] == nil)
        #expect(!variables.keys.contains { $0.hasPrefix("API_") })
    }

    @Test func defaultsAndCommandsHaveNoHandler() throws {
        let variables = try LambdaEnvironment(functionName: "resize", functionDirectory: "/tools", serverEnvironment: [:]).variables()
        #expect(variables["AWS_REGION"] == "us-east-1")
        #expect(variables["ENV"] == "NONE")
        #expect(variables["_HANDLER"] == nil)
        #expect(variables["PATH"] == "/usr/local/bin:/usr/bin:/bin")
        #expect(variables["HOME"] == nil)
    }

    @Test func apiOutputsInAmplifysNames() throws {
        var environment = LambdaEnvironment(functionName: "calc", functionDirectory: "/src", serverEnvironment: [:])
        environment.api = .init(apiName: "blogApi", endpoint: "http://127.0.0.1:4000/graphql", apiID: "local-api", apiKey: "da2-local")
        let variables = try environment.variables()
        #expect(variables["API_BLOGAPI_GRAPHQLAPIENDPOINTOUTPUT"] == "http://127.0.0.1:4000/graphql")
        #expect(variables["API_BLOGAPI_GRAPHQLAPIIDOUTPUT"] == "local-api")
        #expect(variables["API_BLOGAPI_GRAPHQLAPIKEYOUTPUT"] == "da2-local")

        environment.api?.apiKey = nil
        #expect(try environment.variables()["API_BLOGAPI_GRAPHQLAPIKEYOUTPUT"] == nil)
    }

    @Test func configuredValuesThenEnvFileOverride() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lambda-env-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try """
            # local overrides
            export TABLE=orders-local

            TZ=Europe/Paris
            GREETING="hello\\nworld" # comment
            RAW='$HOME and \\n stay'
            URL=http://x/#anchor
            SPACED = padded value   # trailing comment
            EMPTY=
            """.write(toFile: folder + "/.env", atomically: true, encoding: .utf8)

        let environment = LambdaEnvironment(
            functionName: "calc", functionDirectory: "/src", configured: ["TABLE": "orders-dev", "BUCKET": "b", "REGION": "custom"],
            envFile: folder + "/.env", serverEnvironment: [:])
        let variables = try environment.variables()
        #expect(variables["TABLE"] == "orders-local")
        #expect(variables["BUCKET"] == "b")
        #expect(variables["REGION"] == "custom")
        #expect(variables["TZ"] == "Europe/Paris")
        #expect(variables["GREETING"] == "hello\nworld")
        #expect(variables["RAW"] == "$HOME and \\n stay")
        #expect(variables["URL"] == "http://x/#anchor")
        #expect(variables["SPACED"] == "padded value")
        #expect(variables["EMPTY"] == "")

        // A missing env file is skipped, as amplify mock skips a missing .env.
        let missing = LambdaEnvironment(functionName: "calc", functionDirectory: "/src", envFile: folder + "/none.env", serverEnvironment: [:])
        #expect(try missing.variables()["AWS_LAMBDA_FUNCTION_NAME"] == "calc")
    }

    @Test(arguments: [
        ("A=1\nPORT 8080", "x.env:2: expected KEY=VALUE, got \"PORT 8080\". Write the variable as NAME=value, or start the line with # to make it a comment."),
        ("1ABC=x", "x.env:1: \"1ABC\" is not a variable name. Use letters, digits and _ only, not starting with a digit (such as TABLE_NAME)."),
        ("\n\nNAME=\"open", "x.env:3: the value of NAME opens a \" quote that the line does not close. Close it on the same line (write a line break as \\n inside double quotes)."),
        ("NAME='a' b", "x.env:1: unexpected \"b\" after the quoted value of NAME. Put the whole value inside the quotes."),
    ])
    func malformedLinesNameFileAndLine(text: String, message: String) {
        #expect(throws: EnvFileError.self) { try DotEnvFile.parse(text, file: "x.env") }
        do {
            _ = try DotEnvFile.parse(text, file: "x.env")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func malformedEnvFileFailsTheEnvironment() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).env").path
        try "OK=1\nnot a line\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let environment = LambdaEnvironment(functionName: "f", functionDirectory: "/", envFile: path, serverEnvironment: [:])
        do {
            _ = try environment.variables()
            Issue.record("expected an error")
        } catch {
            #expect(error.file == path)
            #expect(error.line == 2)
        }
    }
}
