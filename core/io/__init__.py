"""In and out of a vault: migrate from the JSONL store, import Markdown notes, export, the event
log."""
