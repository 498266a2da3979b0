/* Who wins where (lab.html draws its default). A table of the right passage's rank under dense
 * search and BM25 for every golden question (data.labs.winners), sortable by any column and
 * filterable to paraphrases or to questions that share words with their passage.
 * State: {sort: id|dense|bm25|winner, dir: asc|desc, show: all|paraphrase|literal}. */
(() => {
  const NOUNS = { all: "questions", paraphrase: "paraphrases", literal: "questions that share words with their passage" };
  const WINNER_NAMES = { dense: "dense", bm25: "BM25", tie: "tie" };
  const WINNER_ORDER = { dense: 0, bm25: 1, tie: 2 };
  const COLUMN_NAMES = { id: "question", dense: "dense rank", bm25: "BM25 rank", winner: "which ranks higher" };

  RAG.lab("winners", {
    accept(next) {
      if (!Object.hasOwn(COLUMN_NAMES, next.sort) || !["asc", "desc"].includes(next.dir) || !Object.hasOwn(NOUNS, next.show)) return null;
      return { sort: next.sort, dir: next.dir, show: next.show };
    },

    setup(ctx) {
      for (const radio of ctx.findAll('input[name="winners-show"]')) {
        ctx.on(radio, "change", () => { if (radio.checked) ctx.set({ show: radio.value }); });
      }
      // A column's button sorts by it; pressed again, it turns the order round.
      for (const th of ctx.findAll("th[data-sort]")) {
        ctx.on(th.querySelector("button.sort-button"), "click", () => {
          const column = th.dataset.sort;
          const { sort, dir } = ctx.state;
          ctx.set(sort === column ? { dir: dir === "asc" ? "desc" : "asc" } : { sort: column, dir: "asc" });
        });
      }
    },

    draw(ctx) {
      const { rows, counts } = ctx.own;
      const { sort, dir, show } = ctx.state;
      // A passage a retriever never returns ranks below every passage it does.
      const missing = ctx.data.passages.length + 1;
      const key = {
        id: () => 0, dense: (row) => row.dense || missing, bm25: (row) => row.bm25 || missing,
        winner: (row) => WINNER_ORDER[row.winner],
      }[sort];
      const sign = dir === "desc" ? -1 : 1;
      const shown = rows.filter((row) => show === "all" || (show === "paraphrase") === row.paraphrase)
        .map((row, i) => ({ row, i }))
        .sort((a, b) => sign * (key(a.row) - key(b.row)) || sign * (a.i - b.i))
        .map(({ row }) => row);

      for (const radio of ctx.findAll('input[name="winners-show"]')) radio.checked = radio.value === show;
      for (const th of ctx.findAll("th[data-sort]")) {
        if (th.dataset.sort === sort) th.setAttribute("aria-sort", dir === "asc" ? "ascending" : "descending");
        else th.removeAttribute("aria-sort");
      }
      const rankCell = (rank, wins) => RAG.el("td", { class: ["num", wins ? "is-winner" : ""] }, rank ? String(rank) : "not found");
      RAG.replace(ctx.find("table.winners-table tbody"), shown.map((row) => RAG.el("tr", { class: `winner-${row.winner}`, dataset: { qid: row.id } },
        RAG.el("th", { scope: "row" }, RAG.el("span", { class: "qid" }, row.id), ` ${row.text}`,
          row.paraphrase ? [" ", RAG.el("span", { class: "badge badge-paraphrase" }, "paraphrase")] : null),
        rankCell(row.dense, row.winner === "dense"),
        rankCell(row.bm25, row.winner === "bm25"),
        RAG.el("td", null, WINNER_NAMES[row.winner]))));

      const c = counts[show];
      const status = `${c.total} ${NOUNS[show]}: dense search ranks the right passage higher on ${c.dense}, BM25 on ${c.bm25}, ` +
        `and both give it the same rank on ${c.tie} (${c.both_first} of them at rank 1).`;
      ctx.find(".lab-status").textContent = status;
      return `${status} Sorted by ${COLUMN_NAMES[sort]}, ${dir === "asc" ? "ascending" : "descending"}.`;
    },
  });
})();
