/* Who wins where: a table of the right passage's rank under dense search and under BM25 for
 * every golden question, sortable by any column (its header is a button) and filterable to the
 * paraphrases or to the questions that share words with their passage.
 * State: {sort: id|dense|bm25|winner, dir: asc|desc, show: all|paraphrase|literal}. */
(() => {
  const h = RAG.h;
  const NOUNS = { all: "questions", paraphrase: "paraphrases", literal: "questions that share words with their passage" };
  const WINNER_NAMES = { dense: "dense", bm25: "BM25", tie: "tie" };
  const WINNER_ORDER = { dense: 0, bm25: 1, tie: 2 };
  const COLUMN_NAMES = { id: "question", dense: "dense rank", bm25: "BM25 rank", winner: "which ranks higher" };
  const COLUMNS = [["id", "Question", null], ["dense", "Dense", "num"], ["bm25", "BM25", "num"], ["winner", "Higher", null]];

  /** The rows shown, in order: golden-set order among equal keys (turned round with the rest
   *  when descending); a passage a retriever never returns ranks below every one it does. */
  function ordered(rows, { sort, dir, show }, missing) {
    const key = {
      id: () => 0, dense: (row) => row.dense || missing, bm25: (row) => row.bm25 || missing,
      winner: (row) => WINNER_ORDER[row.winner],
    }[sort];
    const sign = dir === "desc" ? -1 : 1;
    return rows.filter((row) => show === "all" || (show === "paraphrase") === row.paraphrase)
      .map((row, i) => ({ row, i }))
      .sort((a, b) => sign * (key(a.row) - key(b.row)) || sign * (a.i - b.i))
      .map(({ row }) => row);
  }

  function status({ counts, show }) {
    const c = counts[show];
    return `${c.total} ${NOUNS[show]}: dense search ranks the right passage higher on ${c.dense}, BM25 on ${c.bm25}, ` +
      `and both give it the same rank on ${c.tie} (${c.both_first} of them at rank 1).`;
  }

  const rankCell = (rank, wins) => h("td", { class: ["num", wins && "is-winner"] }, rank ? String(rank) : "not found");

  function row(r) {
    return h("tr", { "data-qid": r.id, class: `winner-${r.winner}` },
      h("th", { scope: "row" }, h("span", { class: "qid" }, r.id), ` ${r.text}`,
        r.paraphrase ? [" ", h("span", { class: "badge badge-paraphrase" }, "paraphrase")] : null),
      rankCell(r.dense, r.winner === "dense"),
      rankCell(r.bm25, r.winner === "bm25"),
      h("td", null, WINNER_NAMES[r.winner]));
  }

  RAG.lab("winners", {
    accept(next) {
      if (!Object.hasOwn(COLUMN_NAMES, next.sort) || !["asc", "desc"].includes(next.dir) || !Object.hasOwn(NOUNS, next.show)) return null;
      return { sort: next.sort, dir: next.dir, show: next.show };
    },

    props(state, input) {
      const { rows, counts } = input.own;
      return { ...state, counts, rows: ordered(rows, state, input.data.passages.length + 1) };
    },

    view(props) {
      return [
        h("p", { class: "lab-status" }, status(props)),
        h("div", { class: "table-scroll" },
          h("table", { class: "winners-table" },
            h("caption", { class: "visually-hidden" }, "Rank of the right passage per golden question, under dense search and BM25"),
            h("thead", null, h("tr", null, COLUMNS.map(([column, label, cls]) => h("th", {
              scope: "col", class: cls, "data-sort": column,
              "aria-sort": column === props.sort ? (props.dir === "asc" ? "ascending" : "descending") : undefined,
            }, h("button", { type: "button", class: "sort-button" }, label))))),
            h("tbody", null, props.rows.map(row)))),
      ];
    },

    summary(props) {
      return `${status(props)} Sorted by ${COLUMN_NAMES[props.sort]}, ${props.dir === "asc" ? "ascending" : "descending"}.`;
    },

    setup(ctx) {
      // A column's button sorts by it; pressed again, it turns the order round.
      ctx.on(ctx.output, "click", (event) => {
        const button = event.target.closest && event.target.closest("th[data-sort] button.sort-button");
        if (!button) return;
        const column = button.parentNode.dataset.sort;
        const { sort, dir } = ctx.state;
        ctx.set(sort === column ? { dir: dir === "asc" ? "desc" : "asc" } : { sort: column, dir: "asc" });
      });
    },
  });
})();
