/* site_src/engine/guardrail.js: the twin of engine/guardrail.py (host_of, check_output): an
   output check that blocks links to other sites than the help center's, e-mail addresses and
   requests for credentials, in that order of kind.

   What differs: the patterns are engine/guardrail.py's PATTERNS and the hosts its
   HELP_CENTER_HOSTS, both shipped in the page's data (data.guardrail); Python applies them with
   IGNORECASE and ASCII, this file with the flags "gi", which read that subset of the syntax the
   same way. A finding is a plain object {kind, match, text}, text being Python's str(Finding). */
(() => {
  "use strict";
  const RAG = (globalThis.RAG = globalThis.RAG || {});
  const E = (RAG.engine = RAG.engine || {});

  const FINDING_LABELS = { link: "link to an outside site", email: "e-mail address", credentials: "asks for credentials" };

  /** Example: hostOf("https://user@Help.Example:443/x") -> "help.example" */
  function hostOf(url) {
    const rest = url.includes("://") ? url.split("://").slice(1).join("://") : url;
    const authority = rest.split(/[/?#]/)[0];
    return authority.split("@").pop().split(":")[0].toLowerCase();
  }

  /** Everything in `answer` that should stop it reaching the reader, in order of kind. */
  function checkOutput(answer, patterns, allowedHosts) {
    const findings = [];
    for (const match of String(answer).matchAll(new RegExp(patterns.link, "gi"))) {
      const url = match[0].replace(/[.,;:!?]+$/, "");
      if (!allowedHosts.includes(hostOf(url))) findings.push({ kind: "link", match: url });
    }
    for (const match of String(answer).matchAll(new RegExp(patterns.email, "gi"))) {
      findings.push({ kind: "email", match: match[0] });
    }
    const negation = new RegExp(patterns.negation, "i");
    for (const match of String(answer).matchAll(new RegExp(patterns.credentials, "gi"))) {
      const before = String(answer).slice(Math.max(0, match.index - 30), match.index);
      if (!negation.test(before)) findings.push({ kind: "credentials", match: match[0] });
    }
    return findings.map((f) => ({ kind: f.kind, match: f.match, text: FINDING_LABELS[f.kind] + ": " + f.match }));
  }

  Object.assign(E, { hostOf, checkOutput });
})();
