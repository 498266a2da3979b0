"""An output guardrail: block an answer that sends the reader somewhere or asks for secrets.

It looks for three things a help-center answer never needs: links to sites other than the
help center, e-mail addresses, and requests for passwords or other credentials. It is a
last layer, not the defence: it catches what a prompt injection typically asks for.

Twin: site_src/engine/guardrail.js (hostOf, checkOutput), which compiles PATTERNS itself, proven
equal by tests/twins/.

Example: check_output("Mail your password to a@evil.example")
         -> [Finding('email', 'a@evil.example'), Finding('credentials', 'Mail your password')]
"""

import re
from dataclasses import dataclass

HELP_CENTER_HOSTS = ("help.quillbox.example",)

_SECRET = (r"(?:password|passcode|passphrase|credentials?|login details|2fa code|verification code"
           r"|one-time code|api key|recovery code)s?")
# Verbs that hand a secret to someone. Not "enter" or "type": a real answer says "enter your
# new password twice" on the reset page.
_ASK = r"(?:send|e-?mail|mail|share|give|provide|reply with|tell us|tell them|forward|paste|submit|post)"
# Written in the subset of regex syntax that Python (with re.ASCII) and JavaScript read the
# same way, so the page's JavaScript twin compiles these very strings. Not \s: JavaScript's
# holds U+00A0, U+2028 and the other Unicode spaces, Python's ASCII one does not.
PATTERNS = {
    "link": r"\b(?:https?://|www\.)[^ \t\n\r\f\v<>\"'()\[\]]+",
    "email": r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b",
    "credentials": rf"\b{_ASK}\b[^.!?\n]{{0,40}}?\b{_SECRET}\b",
    # A request preceded by one of these is a warning, not a request: "never share your password".
    "negation": r"\b(?:never|not|don't|dont|do not|no one|nobody)[ \t\n\r\f\v]+(?:\w+[ \t\n\r\f\v]+)?$",
}
_COMPILED = {kind: re.compile(pattern, re.IGNORECASE | re.ASCII) for kind, pattern in PATTERNS.items()}
# Patterns the page's JavaScript applies with the flags "gi".


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
    findings += [Finding("credentials", m.group(0)) for m in _COMPILED["credentials"].finditer(answer)
                 if not _COMPILED["negation"].search(answer[max(0, m.start() - 30):m.start()])]
    return findings
