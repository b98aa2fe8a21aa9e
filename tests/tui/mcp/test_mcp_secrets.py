"""``save_memory`` over a real stdio connection with a secret in it: a tool error (isError) that
names the kind and the place, and nothing written (no commit, ``git status`` unchanged)."""

from __future__ import annotations

from mcp_support import head, status
from secrets_support import AWS, GITHUB


def test_save_memory_with_a_secret_is_a_tool_error_and_writes_nothing(mcp_server):
    for arguments, where in (({"content": f"the key is {AWS}"}, "aws-key in content"),
                             ({"content": "plain", "tags": [GITHUB]},
                              "github-token in meta.tags[0]"),
                             ({"content": "plain", "meta": {"password": "Tr0ub4dor-and-3"}},
                              "password-assignment in meta.extra.password")):
        before, dirty = head(mcp_server.vault), status(mcp_server.vault)
        answer = mcp_server.call("save_memory", **arguments)
        assert answer.error is True, answer.text
        assert where in answer.text and "nothing was written" in answer.text
        assert AWS not in answer.text and GITHUB not in answer.text
        assert head(mcp_server.vault) == before and status(mcp_server.vault) == dirty
