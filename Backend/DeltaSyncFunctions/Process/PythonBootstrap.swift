/// The Python program that runs an Amplify-style handler behind the line protocol of
/// ``LocalProcessFunction``; ``HandlerRuntime/python`` writes it to `bootstrap.py`.
///
/// It keeps duplicates of the real stdin and stdout for requests and answers and points
/// descriptors 0 and 1 at /dev/null and stderr, so that user code (and anything it starts)
/// can neither read a request nor print something that passes for an answer.
enum PythonBootstrap {
    static let source = #"""
# DeltaSync's Python bootstrap: runs one Lambda handler behind DeltaSync's line protocol.
# Usage: python3 -u bootstrap.py <sourceDirectory> <handler>. DeltaSync writes this file and
# rewrites it when its own version changes; edits here are lost.
import decimal
import importlib
import json
import os
import sys
import time
import traceback


def take_protocol_streams():
    """Keeps the real stdin and stdout for requests and answers, and gives user code
    /dev/null and stderr in their place, so nothing it prints (even from C code or a
    subprocess) can be taken for an answer, and nothing it reads can swallow a request."""
    requests = os.fdopen(os.dup(0), "rb")
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return requests, answers


class LoadFailure(Exception):
    def __init__(self, error_type, message):
        super().__init__(message)
        self.error_type = error_type
        self.message = message


def load_handler(source_directory, handler_name):
    try:
        module_name, function_name = handler_name.rsplit(".", 1)
    except ValueError:
        raise LoadFailure("Runtime.MalformedHandlerName",
                          "Bad handler '%s': it must be <module>.<function>, such as index.handler" % handler_name)
    module_name = module_name.replace("/", ".")
    sys.path.insert(0, os.path.abspath(source_directory))
    try:
        module = importlib.import_module(module_name)
    except SyntaxError as error:
        traceback.print_exc()
        raise LoadFailure("Runtime.UserCodeSyntaxError", "Syntax error in module '%s': %s" % (module_name, error))
    except Exception as error:
        traceback.print_exc()
        raise LoadFailure("Runtime.ImportModuleError", "Unable to import module '%s': %s" % (module_name, error))
    handler = getattr(module, function_name, None)
    if not callable(handler):
        raise LoadFailure("Runtime.HandlerNotFound", "Handler '%s' missing on module '%s'" % (function_name, module_name))
    return handler


class Context:
    """What Lambda passes a Python handler as `context`."""

    def __init__(self, request):
        self.function_name = str(request.get("functionName") or "function")
        self.function_version = "$LATEST"
        self.invoked_function_arn = str(request.get("invokedFunctionArn")
                                        or "arn:aws:lambda:us-east-1:000000000000:function:" + self.function_name)
        self.memory_limit_in_mb = str(request.get("memoryLimitInMB") or 128)
        self.aws_request_id = str(request.get("awsRequestId") or "")
        self.log_group_name = "/aws/lambda/" + self.function_name
        self.log_stream_name = time.strftime("%Y/%m/%d") + "/[$LATEST]deltasync"
        self.identity = None
        self.client_context = None
        self._deadline_ms = int(request.get("deadlineMs") or (time.time() * 1000 + 30000))

    def get_remaining_time_in_millis(self):
        return max(self._deadline_ms - int(time.time() * 1000), 0)


def encode_extra(value):
    # DynamoDB's boto3 returns numbers as Decimal; Lambda's runtime encodes them as numbers.
    if isinstance(value, decimal.Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    raise TypeError("Object of type %s is not JSON serializable" % type(value).__name__)


def error_answer(error_type, message):
    return json.dumps({"error": {"errorType": error_type, "errorMessage": message}})


def answer_for(line, loaded):
    try:
        request = json.loads(line)
    except ValueError as error:
        return error_answer("Runtime.InvalidRequest", "The request is not JSON: %s" % error)
    if isinstance(loaded, LoadFailure):
        return error_answer(loaded.error_type, loaded.message)
    context = Context(request.get("context") or {})
    try:
        result = loaded(request.get("event"), context)
    except Exception as error:
        traceback.print_exc()
        return error_answer(type(error).__name__, str(error))
    try:
        return json.dumps({"result": result}, default=encode_extra, allow_nan=False)
    except (TypeError, ValueError, OverflowError) as error:
        return error_answer("Runtime.MarshalError", "Unable to marshal response: %s" % error)


def main():
    source_directory = sys.argv[1] if len(sys.argv) > 1 else "."
    handler_name = sys.argv[2] if len(sys.argv) > 2 else ""
    requests, answers = take_protocol_streams()
    try:
        loaded = load_handler(source_directory, handler_name)
    except LoadFailure as failure:
        loaded = failure
    # One request at a time; end of file means DeltaSync is done (or gone).
    while True:
        line = requests.readline()
        if not line:
            break
        if not line.strip():
            continue
        answers.write(answer_for(line.decode("utf-8"), loaded) + "\n")
        answers.flush()


if __name__ == "__main__":
    main()
"""#
}
