"""A client's bad input outside a tool's own arguments (an unknown tool or prompt, a prompt's
argument missing, unknown, not a string or refused, a completion of nothing the server has) is
JSON-RPC ``-32602`` with a message saying what was wrong, and nothing on the server's stderr
(the SDK answered error code 0 and wrote a ~200-line Rich traceback for each); read with the
package's own stdio client from a spawned server."""

from __future__ import annotations

import pytest
from mcp.shared.exceptions import MCPError
from mcp.types import (
    CompleteRequest,
    CompleteRequestParams,
    CompleteResult,
    GetPromptRequest,
    GetPromptRequestParams,
    PromptReference,
    ResourceTemplateReference,
)

from tui.mcp.boundary import OneLineHandler


def _stderr(server) -> str:
    return server.errlog.read_text(encoding="utf-8") if server.errlog.exists() else ""


def _refused(server, work) -> str:
    before = _stderr(server)
    with pytest.raises(MCPError) as caught:
        server.run(work)
    assert caught.value.error.code == -32602, caught.value.error
    assert _stderr(server) == before  # a client's mistake is not the server's to log
    return caught.value.error.message


def _raw_prompt(name: str, arguments: dict):
    """prompts/get with arguments the client's own types would refuse to send."""
    return lambda s: s.send_request(GetPromptRequest(params=GetPromptRequestParams.model_construct(
        name=name, arguments=arguments)), object)


@pytest.mark.parametrize("work, says", [
    (lambda s: s.call_tool("no_such_tool", {}), "Unknown tool: no_such_tool"),
    (lambda s: s.get_prompt("no_such_prompt", {}), "Unknown prompt: no_such_prompt"),
    (lambda s: s.get_prompt("split_memory", {}), "needs the argument(s): memory_id"),
    (lambda s: s.get_prompt("recall_for_task", {"task": "x", "tsk": "typo"}), "'tsk'"),
    (_raw_prompt("split_memory", {"memory_id": 12345678}), "must be a string"),
    (lambda s: s.get_prompt("split_memory", {"memory_id": "nosuchid"}), "nosuchid"),
    (lambda s: s.get_prompt("recall_for_task", {"task": "  "}), "empty task"),
    (lambda s: s.complete(PromptReference(type="ref/prompt", name="no_such_prompt"),
                          {"name": "x", "value": ""}), "no prompt 'no_such_prompt'"),
    (lambda s: s.complete(ResourceTemplateReference(type="ref/resource", uri="memvault://x/{y}"),
                          {"name": "y", "value": ""}), "no resource template"),
    (lambda s: s.complete(PromptReference(type="ref/prompt", name="split_memory"),
                          {"name": "parts", "value": ""}), "no argument 'parts'"),
])
@pytest.mark.filterwarnings("ignore:Pydantic serializer warnings")  # (the int sent on purpose)
def test_bad_input_is_invalid_params_without_a_traceback(mcp_server, work, says):
    message = _refused(mcp_server, work)
    assert says in message, message


def test_the_server_goes_on_after_bad_input(mcp_server):
    _refused(mcp_server, lambda s: s.call_tool("no_such_tool", {}))
    assert not mcp_server.call("search_memory", query="vault").error


def test_a_log_record_is_one_line_without_traceback(capsys):
    import logging

    try:
        raise ValueError("the disk\nis gone")
    except ValueError:
        record = logging.LogRecord("mcp", logging.ERROR, __file__, 1, "handler for %r raised",
                                   ("prompts/get",), exc_info=__import__("sys").exc_info())
    OneLineHandler().emit(record)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("memvault: error: handler for 'prompts/get' raised (ValueError: the disk")


def test_a_completion_request_of_the_raw_kind_is_answered(mcp_server):
    result = mcp_server.run(lambda s: s.send_request(CompleteRequest(
        params=CompleteRequestParams(ref=PromptReference(type="ref/prompt", name="split_memory"),
                                     argument={"name": "memory_id", "value": ""})),
        CompleteResult))
    assert result.completion.values  # the session's vault has memories


def test_a_failure_inside_the_server_is_internal_error_and_one_line(capsys):
    import asyncio
    from types import SimpleNamespace

    from tui.mcp.boundary import Boundary

    told: list[tuple[str, str, str]] = []

    async def broken(ctx):
        raise RuntimeError("the index\nfell over")

    boundary = Boundary(None, lambda *said: told.append(said))
    with pytest.raises(MCPError) as caught:
        asyncio.run(boundary(SimpleNamespace(method="resources/list", params={}), broken))
    assert caught.value.error.code == -32603
    assert caught.value.error.message == "resources/list failed: RuntimeError: the index\\nfell over"
    err = capsys.readouterr().err
    assert err == "memvault: error: resources/list failed: RuntimeError: the index\\nfell over\n"
    assert told == [("error", "memvault.requests", "resources/list failed: RuntimeError: "
                                                   "the index\nfell over")]
