/* The prompt builder: the prompt view (site_src/views/prompt.js) of the help center, with the
 * engine's rules, the data step's sizes and hostile source, and the token counts the build made
 * (data.prompt_tokens; own.hostile_tokens with the hostile source). */
RAG.lab("prompt", { shows: "prompt", input: (lab) => ({
  corpus: lab.corpus, rules: lab.data.prompt.rules, sizes: lab.own.sizes, hostile: lab.own.hostile, prefix: "prompt",
  tokens: { tokenizer: lab.data.tokens.tokenizer, plain: lab.data.prompt_tokens, hostile: lab.own.hostile_tokens } }),
  // Under the controls: where the right passage sits among the sources sent, and the prompt's size.
  outcome(props) {
    const sent = props.sources.map((s) => s.passage.id);
    const where = (pid) => (sent.includes(pid) ? `source ${sent.indexOf(pid) + 1} of ${sent.length}` : "not sent");
    return [RAG.rankOutcome({ rights: props.rights.map((pid) => [pid, where(pid)]), top: sent, named: "First sent" }),
      props.hostile ? " \u00b7 hostile source added" : null,
      props.tokens === undefined ? null : ` \u00b7 ${props.tokens} tokens`];
  } });
