"""An output guardrail: block an answer that sends the reader somewhere or asks for secrets.

It looks for three things a help-center answer never needs: links to sites other than the
help center, e-mail addresses, and requests for passwords or other credentials. It is a
last layer, not the defence: it catches what a prompt injection typically asks for.

Example: check_output("Mail your password to a@evil.example")
         -> [Finding('email', 'a@evil.example'), Finding('credentials', 'Mail your password')]
"""

import re
from dataclasses import dataclass

HELP_CENTER_HOSTS = ("help.quillbox.example",)

_SECRET = (r"(?:password|passcode|passphrase|credentials?|login details|2fa code|verification code"
           r"|one-time code|api key|recovery code)s?")
_ASK = r"(?:send|e-?mail|mail|share|give|provide|enter|type|reply with|tell us|confirm|submit|post)"
# Written in the subset of regex syntax that Python (with re.ASCII) and JavaScript read the
# same way, so the page's JavaScript twin compiles these very strings.
PATTERNS = {
    "link": r"\b(?:https?://|www\.)[^ \t\n\r\f\v<>\"'()\[\]]+",
    "email": r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b",
    "credentials": rf"\b{_ASK}\b[^.!?\n]{{0,40}}?\b{_SECRET}\b",
}
_COMPILED = {kind: re.compile(pattern, re.IGNORECASE | re.ASCII) for kind, pattern in PATTERNS.items()}


@dataclass(frozen=True)
class Finding:
    kind: str  # "link", "email" or "credentials"
    match: str

    def __str__(self) -> str:
        what = {"link": "link to an outside site", "email": "e-mail address",
                "credentials": "asks for credentials"}[self.kind]
        return f"{what}: {self.match}"


def host_of(url: str) -> str:
    """'https://user@Help.Example:443/x' -> 'help.example'; a bare 'www.x.example/y' -> 'www.x.example'."""
    rest = url.split("://", 1)[1] if "://" in url else url
    authority = re.split(r"[/?#]", rest, maxsplit=1)[0]
    return authority.rsplit("@", 1)[-1].split(":", 1)[0].lower()


def check_output(answer: str, allowed_hosts: tuple[str, ...] = HELP_CENTER_HOSTS) -> list[Finding]:
    """Everything in `answer` that should stop it reaching the reader, in order of kind."""
    findings = []
    for match in _COMPILED["link"].finditer(answer):
        url = match.group(0).rstrip(".,;:!?")
        if host_of(url) not in allowed_hosts:
            findings.append(Finding("link", url))
    findings += [Finding("email", m.group(0)) for m in _COMPILED["email"].finditer(answer)]
    findings += [Finding("credentials", m.group(0)) for m in _COMPILED["credentials"].finditer(answer)]
    return findings
