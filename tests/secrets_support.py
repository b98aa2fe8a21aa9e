"""Fake secrets of each kind the scanner knows (none is a real credential), shared by the
secret tests."""

from __future__ import annotations

AWS = "AKIAIOSFODNN7EXAMPLE"
GITHUB = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A"
GITLAB = "glpat-" + "xY7zQ2wE9rT4yU1iO6pA"
SLACK = "xoxb-" + "123456789012-1234567890123-" + "aBcDeFgHiJkLmNoPqRsTuVwX"
JWT = ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0."
       "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U")
PRIVATE_KEY = ("-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgO\n"
               "-----END RSA PRIVATE KEY-----")
PASSWORD = "Tr0ub4dor-and-3"
ENTROPY = "q8Zr3Lw0Xp7Vn2Ks5Jd9Hf4Gb6Tc1Ym0Ue"

#: (kind, text holding it, the secret itself)
PLANTED = [
    ("aws-key", f"the deploy key is {AWS} for prod", AWS),
    ("github-token", f"token {GITHUB} (expires soon)", GITHUB),
    ("gitlab-token", f"use {GITLAB} for the CI", GITLAB),
    ("slack-token", f"bot {SLACK}", SLACK),
    ("jwt", f"session {JWT} end", JWT),
    ("private-key", f"key:\n{PRIVATE_KEY}\nafter", PRIVATE_KEY),
    ("password-assignment", f"db password = {PASSWORD}", PASSWORD),
    ("high-entropy-string", f"the api secret blob {ENTROPY} goes here", ENTROPY),
]

CLEAN = [
    "Alice prefers tabs, dark mode and internationalization-friendly copy.",
    "fixed in commit 8f3a9c2e7b1d4f6a0e5c9b8a7d6f5e4c3b2a1908 yesterday",
    "memory 3f2a1b4c-1234-4abc-9def-0123456789ab came from the import",
    "the password: rotated monthly by the ops team",
    "see /usr/local/lib/python3.11/site-packages/textual for the widget",
    "https://example.com/docs/getting-started?page=2",
]


def run_git(cwd, *args: str) -> str:
    """git's output in ``cwd`` (raises on failure)."""
    import subprocess

    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True,
                          check=True).stdout.strip()
