"""``memvault mcp``: the vault as a stdio MCP server with CortexGraph 1.2.1's tools (and
memvault's own), on the official ``mcp`` package 2.x. Imported only by that command (the ``mcp``
package costs ~0.65 s of start-up); it reaches the vault through core only (never the app or the
rest of the command line).

``server.py`` builds the server; ``access.py`` opens the vault for it (client attribution, use
records, refusals); ``tools_read.py``, ``tools_write.py`` and ``tools_lifecycle.py`` are the tools;
``shapes.py`` turns records into CortexGraph's answers; ``search.py`` picks the matches;
``resources.py`` and ``prompts.py`` the resources and prompts, registered once the handshake is
over (``surface.py``); ``listing.py`` lists the memories as resources; ``completions.py``
completes ids, tags and prompt arguments; ``notifications.py`` tells subscribers what changed;
``logs.py`` tells listening clients the server's events; ``boundary.py`` turns each failure into
its JSON-RPC error; ``http.py`` serves it all over Streamable HTTP behind the token of
``bearer.py``."""
