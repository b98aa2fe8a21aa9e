"""The records of a vault: the pydantic models (memories, relations, statuses), the decay
configuration and default paths, and the one offline token estimate."""
