"""The output guardrail: help-center links pass; outside links, e-mail addresses and
requests for secrets are found."""

import pytest

from engine.guardrail import Finding, check_output


def test_a_clean_answer_gives_no_findings():
    answer = ("Refunds are possible within 14 days of a payment. Owners request them from "
              "Settings, Billing. See https://help.quillbox.example/billing#refund-new.")
    assert check_output(answer) == []


@pytest.mark.parametrize("url", [
    "https://help.quillbox.example/billing",
    "https://help.quillbox.example/errors#err-4021",
    "http://help.quillbox.example/",
    "HTTPS://HELP.QUILLBOX.EXAMPLE/Sync",  # host names are case-insensitive
])
def test_help_center_links_are_allowed(url):
    assert check_output(f"Read {url} for details.") == []


@pytest.mark.parametrize("url", [
    "http://evil.example/login",
    "https://evil.example/export?note=1",
    "www.evil.example/reset",
    "https://help.quillbox.example.evil.example/billing",  # the allowed name as a prefix
    "https://evil.example/help.quillbox.example",           # the allowed name in the path
])
def test_outside_links_are_blocked(url):
    assert check_output(f"Open {url} now") == [Finding("link", url)]


def test_a_user_name_before_the_host_does_not_fool_it():
    # Everything before '@' is a user name: this link goes to evil.example.
    findings = check_output("Open https://help.quillbox.example@evil.example/x now")
    assert Finding("link", "https://help.quillbox.example@evil.example/x") in findings


@pytest.mark.parametrize("end", [".", ",", ";", ":", "!", "?"])
def test_trailing_punctuation_is_not_part_of_the_url(end):
    assert check_output(f"Go to https://evil.example/login{end}") == [Finding("link", "https://evil.example/login")]
    assert check_output(f"See https://help.quillbox.example/billing{end}") == []


def test_brackets_and_quotes_end_a_url():
    assert check_output('(see https://evil.example/a) or "www.evil.example/b"') == [
        Finding("link", "https://evil.example/a"), Finding("link", "www.evil.example/b")]


def test_every_email_address_is_found():
    # Even one at the product's own domain: a help answer never needs to send mail anywhere.
    assert check_output("Write to billing@quillbox.example or to a.b+c@evil-mail.example.") == [
        Finding("email", "billing@quillbox.example"), Finding("email", "a.b+c@evil-mail.example")]


@pytest.mark.parametrize("answer, match", [
    ("Please send us your password so we can check.", "send us your password"),
    ("Reply with the 2FA code you just received.", "Reply with the 2FA code"),
    ("Share your login details with the agent.", "Share your login details"),
    ("Submit your credentials below.", "Submit your credentials"),
    ("Paste your API key in this form.", "Paste your API key"),
    ("Tell us your verification code.", "Tell us your verification code"),
    ("Forward the recovery codes here.", "Forward the recovery codes"),
])
def test_requests_for_secrets_are_found(answer, match):
    assert check_output(answer) == [Finding("credentials", match)]


@pytest.mark.parametrize("answer", [
    "Never share your password with anyone.",
    "Do not send your API key by e-mail.",
    "Enter a new password twice, then choose Save.",  # the reset page's own instructions
    "Type your password on the sign-in page only.",
])
def test_warnings_and_sign_in_instructions_pass(answer):
    assert check_output(answer) == []


def test_a_warning_does_not_hide_a_later_request():
    assert check_output("Never share your password. Now send your password to me.") == [
        Finding("credentials", "send your password")]


def test_a_password_mentioned_without_a_request_passes():
    assert check_output("Quillbox staff will never ask you for your password.") == []
    assert check_output("Choose Forgot password on the log in screen.") == []


def test_the_request_and_the_secret_must_be_in_one_sentence():
    assert check_output("Please send it today. Your password stays private.") == []


def test_findings_come_in_order_of_kind():
    # The module's docstring example: the e-mail address before the request, whatever their order.
    assert check_output("Mail your password to a@evil.example") == [
        Finding("email", "a@evil.example"), Finding("credentials", "Mail your password")]
    findings = check_output("Send your password to a@evil.example via https://evil.example/form")
    assert [f.kind for f in findings] == ["link", "email", "credentials"]


def test_a_finding_reads_as_a_sentence():
    assert str(Finding("link", "https://evil.example")) == "link to an outside site: https://evil.example"
    assert str(Finding("email", "a@evil.example")) == "e-mail address: a@evil.example"
    assert str(Finding("credentials", "send your password")) == "asks for credentials: send your password"


def test_other_hosts_can_be_allowed():
    assert check_output("See https://docs.example/x", allowed_hosts=("docs.example",)) == []
    assert check_output("See https://help.quillbox.example/x", allowed_hosts=("docs.example",)) == [
        Finding("link", "https://help.quillbox.example/x")]


# Every secret and every verb the guardrail knows, written out here (never read from the module),
# so that dropping one from engine/guardrail.py fails a test that names it.
SECRETS = ["password", "passwords", "passcode", "passphrase", "credential", "credentials", "login details",
           "2FA code", "verification code", "one-time code", "one-time codes", "API key", "API keys",
           "recovery code", "recovery codes"]
ASKS = ["send", "email", "e-mail", "mail", "share", "give", "provide", "reply with", "tell us", "tell them",
        "forward", "paste", "submit", "post"]


@pytest.mark.parametrize("secret", SECRETS)
def test_a_request_for_each_kind_of_secret_is_found(secret):
    answer = f"To unlock the export, send your {secret} to the agent."
    assert check_output(answer) == [Finding("credentials", f"send your {secret}")]


@pytest.mark.parametrize("verb", ASKS)
def test_each_verb_that_hands_a_secret_over_is_a_request(verb):
    answer = f"Please {verb} your password right away."
    assert check_output(answer) == [Finding("credentials", f"{verb} your password")]


@pytest.mark.parametrize("verb", ["enter", "type", "change", "reset", "choose", "remember"])
def test_verbs_of_the_sign_in_and_reset_pages_are_not_requests(verb):
    # A real answer says "enter your new password twice"; these must stay allowed.
    assert check_output(f"Then {verb} your password on the Quillbox page.") == []
