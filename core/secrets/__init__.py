"""Secrets: the scanner (``scanner.py``, on detect-secrets' detectors), the policy a write follows
(``policy.py``: refuse, redact, allow), the write-time check on the one write path (``write_check.py``), the scan
of all of history (``history.py``) and purging memories from it (``purge.py``). See docs/secrets.md."""
