/* The prompt builder: the prompt view (site_src/views/prompt.js) of the help center, with the
 * engine's rules, the data step's sizes and hostile source, and the token counts the build made
 * (data.prompt_tokens; own.hostile_tokens with the hostile source). */
RAG.lab("prompt", { shows: "prompt", input: (lab) => ({
  corpus: lab.corpus, rules: lab.data.prompt.rules, sizes: lab.own.sizes, hostile: lab.own.hostile, prefix: "prompt",
  tokens: { tokenizer: lab.data.tokens.tokenizer, plain: lab.data.prompt_tokens, hostile: lab.own.hostile_tokens } }) });
