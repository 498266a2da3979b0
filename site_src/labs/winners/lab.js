/* Who wins where: a table of the right passage's rank under dense search and under BM25 for
 * every golden question, sortable by any column (its header is a button) and filterable to the
 * questions of one group (in the help center's words, paraphrases, typed as people type). A
 * place shared by a tie reads "2=" (RAG.engine.rankLabel), and sorts by its first rank.
 * State: {sort: id|dense|bm25|winner, dir: asc|desc, show: all|words|paraphrase|typed}. */
(() => {
  const h = RAG.h;
  const NOUNS = { all: "questions", words: "questions in the help center's words", paraphrase: "paraphrases",
                  typed: "questions typed the way people type" };
  const WINNER_NAMES = { dense: "dense", bm25: "BM25", tie: "tie" };
  const WINNER_ORDER = { dense: 0, bm25: 1, tie: 2 };
  const COLUMN_NAMES = { id: "question", dense: "dense rank", bm25: "BM25 rank", winner: "which ranks higher" };
  const COLUMNS = [["id", "Question", null], ["dense", "Dense", "num"], ["bm25", "BM25", "num"], ["winner", "Higher", null]];

  /** The rows shown, in order: golden-set order among equal keys (turned round with the rest
   *  when descending); a passage a retriever never returns ranks below every one it does. */
  function ordered(rows, { sort, dir, show }, missing) {
    const key = {
      id: () => 0, dense: (row) => (row.dense ? row.dense[0] : missing), bm25: (row) => (row.bm25 ? row.bm25[0] : missing),
      winner: (row) => WINNER_ORDER[row.winner],
    }[sort];
    const sign = dir === "desc" ? -1 : 1;
    return rows.filter((row) => show === "all" || show === row.group)
      .map((row, i) => ({ row, i }))
      .sort((a, b) => sign * (key(a.row) - key(b.row)) || sign * (a.i - b.i))
      .map(({ row }) => row);
  }

  function status({ counts, show }) {
    const c = counts[show];
    return `${c.total} ${NOUNS[show]}: dense search ranks the right passage higher on ${c.dense}, BM25 on ${c.bm25}, ` +
      `and neither surely ranks it higher on ${c.tie} (${c.both_first} of them with both at rank 1).`;
  }

  const rankCell = (place, wins) => h("td", { class: ["num", wins && "is-winner"] }, place ? RAG.engine.rankLabel(place) : "not found");

  function row(r) {
    return h("tr", { "data-qid": r.id, class: `winner-${r.winner}` },
      h("th", { scope: "row" }, h("span", { class: "qid" }, r.id), ` ${r.text}`,
        r.group !== "words" ? [" ", h("span", { class: `badge badge-${r.group}` }, r.group)] : null),
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
            h("caption", { class: "visually-hidden" }, "Place of the right passage per golden question, under dense search and BM25"),
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
