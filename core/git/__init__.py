"""The git journal: transactions and recovery (journal), intent records (intent), the
inter-process write lock (lock), HEAD without git (gitdir), shallow clones (shallow)."""
