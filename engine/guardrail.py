"""An output guardrail: block an answer that sends the reader somewhere or asks for secrets.

It looks for three things a help-center answer never needs: links to sites other than the
help center, e-mail addresses, and requests for passwords or other credentials. It is a
last layer, not the defence: it catches what a prompt injection typically asks for.

Example: check_output("Mail your password to a@evil.example")
         -> [Finding('email', 'a@evil.example'), Finding('credentials', 'Mail your password')]
"""

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

HELP_CENTER_HOSTS = ("help.quillbox.example",)

_URL = re.compile(r"\b(?:https?://|www\.)[^\s<>\"'()\[\]]+", re.IGNORECASE)
_EMAIL = re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")
_SECRET = r"(?:password|passcode|passphrase|credentials?|login details|2fa code|verification code|one-time code|api key|recovery code)s?"
_ASK = r"(?:send|e-?mail|mail|share|give|provide|enter|type|reply with|tell us|confirm|submit|post)"
_CREDENTIALS = re.compile(rf"\b{_ASK}\b[^.!?\n]{{0,40}}?\b{_SECRET}\b", re.IGNORECASE)


@dataclass(frozen=True)
class Finding:
    kind: str  # "link", "email" or "credentials"
    match: str

    def __str__(self) -> str:
        what = {"link": "link to an outside site", "email": "e-mail address",
                "credentials": "asks for credentials"}[self.kind]
        return f"{what}: {self.match}"


def _host(url: str) -> str:
    if url.lower().startswith("www."):
        url = "http://" + url
    return (urlsplit(url).hostname or "").lower()


def check_output(answer: str, allowed_hosts: tuple[str, ...] = HELP_CENTER_HOSTS) -> list[Finding]:
    """Everything in `answer` that should stop it reaching the reader, in order of kind."""
    findings = []
    for match in _URL.finditer(answer):
        url = match.group(0).rstrip(".,;:!?")
        if _host(url) not in allowed_hosts:
            findings.append(Finding("link", url))
    findings += [Finding("email", m.group(0)) for m in _EMAIL.finditer(answer)]
    findings += [Finding("credentials", m.group(0)) for m in _CREDENTIALS.finditer(answer)]
    return findings
