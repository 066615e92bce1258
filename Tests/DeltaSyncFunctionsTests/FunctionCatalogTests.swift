import DeltaSyncCore
import DeltaSyncFunctions
import Foundation
import Logging
import Testing

/// Amplify project discovery, the catalog built from it and functions.json, and name lookup.
@Suite struct FunctionCatalogTests {
    static func template(handler: String?, runtime: String, timeout: Int, variables: String) -> String {
        """
        {
          "AWSTemplateFormatVersion": "2010-09-09",
          "Parameters": { "env": { "Type": "String" } },
          "Resources": {
            "LambdaFunction": {
              "Type": "AWS::Lambda::Function",
              "Properties": {
                \(handler.map { "\"Handler\": \"\($0)\"," } ?? "")
                "FunctionName": { "Fn::If": ["ShouldNotCreateEnvResources", "x", { "Fn::Join": ["", ["x", "-", { "Ref": "env" }]] }] },
                "Environment": { "Variables": \(variables) },
                "Runtime": "\(runtime)",
                "Timeout": \(timeout)
              }
            }
          }
        }
        """
    }

    /// An Amplify Gen 1 project: a node and a python function with templates, a `.env`, a
    /// function DeltaSync cannot run and one with a broken template.
    static func amplifyProject() throws -> String {
        try functionsTestFolder([
            "amplify/.config/local-env-info.json": #"{"projectPath": "/x", "defaultEditor": "code", "envName": "dev"}"#,
            "amplify/team-provider-info.json": #"{"dev": {"awscloudformation": {"Region": "eu-central-1", "StackName": "amplify-x-dev"}}}"#,
            "amplify/backend/function/calc/src/index.js": #"exports.handler = async (event) => ({ table: process.env.TABLE, env: process.env.ENV, sum: event.arguments.a + event.arguments.b, home: process.env.HOME ?? null, key: process.env.AWS_ACCESS_KEY_ID ?? null });"#,
            "amplify/backend/function/calc/calc-cloudformation-template.json": template(
                handler: "index.handler", runtime: "nodejs18.x", timeout: 25,
                variables: #"{"ENV": {"Ref": "env"}, "REGION": {"Ref": "AWS::Region"}, "TABLE": "orders", "STAGE_COUNT": 3, "API_BLOG_GRAPHQLAPIIDOUTPUT": {"Ref": "apiblogGraphQLAPIIdOutput"}}"#),
            "amplify/backend/function/calc/.env": "TABLE=orders-local\n",
            "amplify/backend/function/report/src/index.py": "def handler(event, context):\n    return {'ok': True}\n",
            "amplify/backend/function/report/report-cloudformation-template.json": template(
                handler: nil, runtime: "python3.11", timeout: 10, variables: #"{"ENV": {"Ref": "env"}}"#),
            "amplify/backend/function/javaThing/src/Main.java": "",
            "amplify/backend/function/broken/src/index.mjs": "export const handler = async () => 1;",
            "amplify/backend/function/broken/broken-cloudformation-template.json": "{ not json",
        ])
    }

    static let logger = Logger(label: "test")

    static func setup(_ folder: String) -> FunctionCatalog.Setup {
        FunctionCatalog.Setup(
            bootstrapDirectory: folder + "/.deltasync/functions", region: "eu-west-1",
            serverEnvironment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": "/home/dev", "AWS_ACCESS_KEY_ID": "AKIAREAL"],
            displayDirectory: folder)
    }

    @Test func findsAmplifyFunctions() throws {
        let folder = try Self.amplifyProject()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let project = AmplifyFunctionProject(projectDirectory: folder)
        #expect(project.environmentName == "dev")
        #expect(project.region == "eu-central-1")
        #expect(AmplifyFunctionProject(projectDirectory: folder, region: "eu-west-1").region == "eu-west-1")
        #expect(project.functions.map(\.name) == ["broken", "calc", "report"])
        let calc = try #require(project.functions.first { $0.name == "calc" })
        #expect(calc == AmplifyFunctionProject.Function(
            name: "calc", directory: folder + "/amplify/backend/function/calc", sourceDirectory: folder + "/amplify/backend/function/calc/src",
            runtime: .node, handler: "index.handler", runtimeIdentifier: "nodejs18.x", timeout: .seconds(25),
            environment: ["ENV": .environmentName, "REGION": .region, "TABLE": .text("orders"), "STAGE_COUNT": .text("3")],
            envFile: folder + "/amplify/backend/function/calc/.env"))
        #expect(calc.environment(environmentName: "dev", region: "eu-west-1") == ["ENV": "dev", "REGION": "eu-west-1", "TABLE": "orders", "STAGE_COUNT": "3"])
        let report = try #require(project.functions.first { $0.name == "report" })
        #expect(report.runtime == .python)
        #expect(report.handler == "index.handler")
        #expect(report.timeout == .seconds(10))
        let broken = try #require(project.functions.first { $0.name == "broken" })
        #expect(broken.runtime == .node)
        #expect(broken.timeout == nil)
        #expect(broken.environment == [:])
        #expect(project.skipped.keys.sorted() == ["javaThing"])
        #expect(project.skipped["javaThing"]?.contains("no index.js, index.mjs, index.cjs or index.py") == true)

        let bare = AmplifyFunctionProject(projectDirectory: folder + "/amplify/backend")
        #expect(bare.functions.isEmpty)
        #expect(bare.environmentName == "NONE")
        #expect(bare.region == nil)
    }

    @Test func catalogOfAnAmplifyProject() async throws {
        let folder = try Self.amplifyProject()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let catalog = try FunctionCatalog(amplifyProject: AmplifyFunctionProject(projectDirectory: folder), setup: Self.setup(folder), logger: Self.logger)
        defer { Task { await catalog.shutdown() } }
        #expect(catalog.environmentName == "dev")
        #expect(catalog.descriptions == [
            "broken → node amplify/backend/function/broken/src (index.handler)",
            "calc → node amplify/backend/function/calc/src (index.handler)",
            "report → python amplify/backend/function/report/src (index.handler)",
        ])
        let calc = try #require(catalog.function(named: "calc-${env}"))
        #expect(calc.source == .amplifyProject)
        #expect(calc.timeout == .seconds(25))
        #expect(catalog.function(named: "calc-dev")?.name == "calc", "the deployed name, as an ARN in a template holds it")
        #expect(catalog.function(named: "calc-prod") == nil, "another environment's is not this one's")
        let process = try #require(calc.process)
        #expect(process.workingDirectory == folder + "/amplify/backend/function/calc/src")
        #expect(process.command.first == "node")
        #expect(process.command.contains(folder + "/amplify/backend/function/calc/src"))
        #expect(process.environment["TABLE"] == "orders-local")  // .env over the template
        #expect(process.environment["ENV"] == "dev")
        #expect(process.environment["REGION"] == "eu-west-1")
        #expect(process.environment["_HANDLER"] == "index.handler")
        #expect(process.environment["HOME"] == "/home/dev")
        #expect(process.environment["AWS_ACCESS_KEY_ID"] == nil)
        #expect(catalog.function(named: "report")?.timeout == .seconds(10))
        #expect(catalog.function(named: "broken")?.timeout == .seconds(30))
        await catalog.shutdown()
    }

    @Test func invokesAnAmplifyNodeFunction() async throws {
        let folder = try Self.amplifyProject()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let catalog = try FunctionCatalog(amplifyProject: AmplifyFunctionProject(projectDirectory: folder), setup: Self.setup(folder), logger: Self.logger)
        let calc = try #require(catalog.function(named: "calc-${env}"))
        let result = try await calc.function.invoke(
            LambdaInvocation(functionName: "calc", event: ["arguments": ["a": 2, "b": 3]], timeout: .seconds(10)))
        await catalog.shutdown()
        #expect(result == ["table": "orders-local", "env": "dev", "sum": 5, "home": "/home/dev", "key": nil])
    }

    @Test func malformedEnvFileFailsTheCatalog() throws {
        let folder = try Self.amplifyProject()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let envFile = folder + "/amplify/backend/function/calc/.env"
        try "TABLE=x\nthis is not a variable\n".write(toFile: envFile, atomically: true, encoding: .utf8)
        do {
            let catalog = try FunctionCatalog(amplifyProject: AmplifyFunctionProject(projectDirectory: folder), setup: Self.setup(folder), logger: Self.logger)
            _ = catalog
            Issue.record("expected an error")
        } catch {
            #expect(error.message == "Function calc: \(envFile):2: expected KEY=VALUE, got \"this is not a variable\". Write the variable as NAME=value, or start the line with # to make it a comment.")
        }
    }

    @Test func precedenceExplicitOverFileOverAmplify() async throws {
        let folder = try Self.amplifyProject()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/tools", withIntermediateDirectories: true)
        try """
            {"functions": {
              "calc": {"url": "http://127.0.0.1:9000/calc", "timeout": 5},
              "report": {"command": ["python3", "report.py"], "directory": "tools", "env": {"MODE": "file"}},
              "extra": {"url": "http://127.0.0.1:9000/extra"}
            }, "region": "ap-south-1"}
            """.write(toFile: folder + "/functions.json", atomically: true, encoding: .utf8)
        let catalog = try FunctionCatalog.combining(
            explicit: [try FunctionCatalog.Entry(flag: "extra=http://127.0.0.1:7000/flag"), .closure(name: "double") { _ in 4 }],
            functionsFile: try FunctionsFile(contentsOf: folder + "/functions.json"),
            amplifyProject: AmplifyFunctionProject(projectDirectory: folder),
            setup: FunctionCatalog.Setup(bootstrapDirectory: folder + "/.deltasync/functions", serverEnvironment: [:], displayDirectory: folder),
            logger: Self.logger)
        #expect(catalog.environmentName == "dev")
        #expect(catalog.descriptions == [
            "broken → node amplify/backend/function/broken/src (index.handler)",
            "calc → http://127.0.0.1:9000/calc",
            "double → Swift closure",
            "extra → http://127.0.0.1:7000/flag",
            "report → python3 report.py (in tools)",
        ])
        #expect(catalog.function(named: "calc-${env}")?.source == .functionsFile)
        #expect(catalog.function(named: "calc")?.timeout == .seconds(5))
        #expect(catalog.function(named: "extra")?.source == .explicit)
        #expect(catalog.function(named: "broken")?.source == .amplifyProject)
        let report = try #require(catalog.function(named: "report-${env}")?.process)
        #expect(report.command == ["python3", "report.py"])
        #expect(report.workingDirectory == folder + "/tools")
        #expect(report.environment["MODE"] == "file")
        #expect(report.environment["AWS_REGION"] == "ap-south-1")  // functions.json's region
        #expect(report.environment["_HANDLER"] == nil)
        let broken = try #require(catalog.function(named: "broken")?.process)
        #expect(broken.environment["AWS_REGION"] == "eu-central-1")  // the Amplify environment's region
        #expect(try await catalog.function(named: "double")?.function.invoke(LambdaInvocation(functionName: "double", event: [:])) == 4)
        await catalog.shutdown()
    }

    @Test func namesAsAmplifyWritesThem() {
        let catalog = FunctionCatalog(
            [.url(name: "calc", url: "http://h/calc"), .url(name: "orders-dev", url: "http://h/orders"), .url(name: "report", url: "http://h/r")],
            environmentName: "dev")
        #expect(catalog.function(named: "calc")?.name == "calc")
        #expect(catalog.function(named: "calc-${env}")?.name == "calc")
        #expect(catalog.function(named: "orders-${env}")?.name == "orders-dev")
        #expect(catalog.function(named: "orders-dev")?.name == "orders-dev")
        #expect(catalog.function(named: "report${env}")?.name == "report")
        #expect(catalog.function(named: "calc-prod") == nil)
        #expect(catalog.unconfigured(["calc-${env}", "resize-${env}", "orders-${env}", "resize-${env}", "mail"]) == ["resize-${env}", "mail"])

        // With environment NONE, Amplify drops -${env}: the plain name is what is configured.
        let none = FunctionCatalog([.url(name: "calc", url: "http://h/calc")])
        #expect(none.function(named: "calc-${env}")?.name == "calc")
    }

    @Test func flags() throws {
        let entry = try FunctionCatalog.Entry(flag: "calc-${env}=http://127.0.0.1:9000/calc")
        #expect(entry.name == "calc-${env}")
        #expect(entry.description == "calc-${env} → http://127.0.0.1:9000/calc")
        #expect(throws: FunctionCatalogError("--function calc: expected NAME=URL, such as echo=http://127.0.0.1:9000/echo.")) {
            try FunctionCatalog.Entry(flag: "calc")
        }
        #expect(throws: FunctionCatalogError("--function calc=./calc.sh: \"./calc.sh\" is not an http:// or https:// URL. Write it as calc=http://127.0.0.1:9000/calc, or configure a command in functions.json.")) {
            try FunctionCatalog.Entry(flag: "calc=./calc.sh")
        }
    }
}
