/* Who wins where: a scatter of the right passage's rank under dense search (down) against its
 * rank under BM25 (across), one dot per golden question, the diagonal (the same rank under both)
 * marked; each group of questions its own shape and colour; ranks past the fusion depth (or a
 * passage a list never returns) in a "past" band at the edge, the exact rank named when the dot
 * is tapped; questions on the same pair of ranks packed side by side in their cell, none hidden
 * under another; a place shared by a tie ("2=") drawn at its first rank with a bar to its last.
 * Below it, on demand (<details>), the table of the same ranks, sortable by any column (its
 * header is a button). The filter fades the other groups' dots and leaves them out of the table.
 * Each dot is a list item named by its question and ranks; the dots are one tab stop, the arrow
 * keys move between them, and a dot focused is named under the scatter as a tapped one is.
 * State: {sort: id|dense|bm25|winner, dir: asc|desc, show: all|words|paraphrase|typed};
 * local: {picked}: the question whose dot was tapped or focused, named under the scatter;
 * {stop}: the dot that holds the tab stop. */
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

  // The scatter, in SVG units: LEFT for the dense axis's labels, one CELL per rank up to the
  // depth, BAND for the ranks past it (after a GAP), BOTTOM for the BM25 axis's labels.
  const CELL = 46;
  const GAP = 8;
  const LEFT = 58;
  const TOP = 10;
  const BOTTOM = 52;
  const DOT = 4;              // a dot's radius; dots in one cell sit at least 2 DOT + 1 apart
  const SHAPES = { words: "circle", paraphrase: "ring", typed: "square" };
  const GROUP_NAMES = { words: "in the help center's words", paraphrase: "paraphrase", typed: "typed" };

  /** The cell a place falls in along one axis: its first rank up to the depth; depth + 1 for the band. */
  const cellOf = (place, depth) => (place && place[0] <= depth ? place[0] : depth + 1);
  /** The centre of a cell along an axis (1-based; depth + 1 is the band). */
  const centre = (cell, depth, start) => start + (cell - 1) * CELL + CELL / 2 + (cell > depth ? GAP : 0);

  /** Each row's dot: its cell on both axes, then its place in the cell's little grid (golden-set order). */
  function dots(rows, depth) {
    const cells = new Map();
    for (const row of rows) {
      const key = `${cellOf(row.bm25, depth)},${cellOf(row.dense, depth)}`;
      if (!cells.has(key)) cells.set(key, []);
      cells.get(key).push(row);
    }
    const spacing = 2 * DOT + 1.2;
    return [...cells.values()].flatMap((members) => {
      const across = Math.ceil(Math.sqrt(members.length));
      const down = Math.ceil(members.length / across);
      return members.map((row, i) => {
        const [bx, dy] = [cellOf(row.bm25, depth), cellOf(row.dense, depth)];
        const x = centre(bx, depth, LEFT) + ((i % across) - (across - 1) / 2) * spacing;
        const y = centre(dy, depth, TOP) + (Math.floor(i / across) - (down - 1) / 2) * spacing;
        return { row, x, y, bx, dy, shared: members.length, order: rows.indexOf(row) };
      });
    });
  }

  const tiedText = (place) => (place[1] > place[0] ? ` (tied from ${place[0]} to ${place[1]})` : "");
  const placeWords = (place, depth) => (!place ? "not returned"
    : `rank ${RAG.engine.rankLabel(place)}` + tiedText(place) + (place[0] > depth ? `, past the top ${depth}` : ""));

  /** What a dot says of its question: '“text” (group): dense rank 3, BM25 rank 1. BM25 ranks it higher.' */
  const questionWords = (row, depth) => `\u201c${row.text}\u201d (${GROUP_NAMES[row.group] || row.group}): dense ` +
    `${placeWords(row.dense, depth)}, BM25 ${placeWords(row.bm25, depth)}. ` +
    (row.winner === "tie" ? "Neither surely ranks it higher." : `${row.winner === "dense" ? "Dense search" : "BM25"} ranks it higher.`);

  /** A question's dot: a list item of the scatter, one tab stop for them all (the arrow keys move
   *  from dot to dot in golden-set order), named by what it shows. */
  function marker(dot, props) {
    const { row, x, y } = dot;
    const { picked, show, depth } = props;
    const cls = ["winners-dot", `winners-${row.group}`, row.id === picked && "is-picked",
      show !== "all" && row.group !== show && "is-muted"];
    const attrs = { class: cls, "data-qid": row.id, "data-bm25": String(dot.bx), "data-dense": String(dot.dy),
      "data-order": String(dot.order), role: "listitem", "aria-label": `${row.id} ${questionWords(row, depth)}`,
      tabindex: row.id === props.stop ? "0" : "-1" };
    const shape = SHAPES[row.group] || "circle";
    const body = shape === "square"
      ? h("rect", { x: RAG.fixed(x - DOT, 1), y: RAG.fixed(y - DOT, 1), width: RAG.fixed(2 * DOT, 1), height: RAG.fixed(2 * DOT, 1) })
      : h("circle", { cx: RAG.fixed(x, 1), cy: RAG.fixed(y, 1), r: RAG.fixed(shape === "ring" ? DOT - 0.7 : DOT, 1) });
    return h("g", attrs, body);
  }

  /** A place shared by a tie spans cells: a bar from its first rank's cell to its last's. */
  function spans(list, depth) {
    return list.flatMap(({ row, x, y }) => [["bm25", "x"], ["dense", "y"]].filter(([axis]) => row[axis] && row[axis][1] > row[axis][0])
      .map(([axis, along]) => {
        const end = along === "x" ? centre(cellOf([row[axis][1]], depth), depth, LEFT) : centre(cellOf([row[axis][1]], depth), depth, TOP);
        return h("line", { class: "winners-span", "data-qid": row.id, "data-axis": axis,
          x1: RAG.fixed(x, 1), y1: RAG.fixed(y, 1), x2: RAG.fixed(along === "x" ? end : x, 1), y2: RAG.fixed(along === "y" ? end : y, 1) });
      }));
  }

  function scatter(props) {
    const { depth } = props;
    const span = depth * CELL + GAP + CELL;
    const [width, height] = [LEFT + span + 8, TOP + span + BOTTOM];
    const list = dots(props.all, depth);
    const ticks = Array.from({ length: depth + 1 }, (_, i) => i + 1);
    const tickText = (cell) => (cell > depth ? `> ${depth}` : String(cell));
    const [x0, y0] = [LEFT, TOP];
    const edge = (cells) => RAG.fixed(cells * CELL, 1);
    const c = props.counts.all;
    return h("figure", { class: "figure winners-figure" },
      h("svg", { class: "winners-scatter", viewBox: `0 0 ${width} ${height}`, role: "group", "aria-labelledby": "winners-title winners-desc" },
        h("title", { id: "winners-title" }, "The right passage's rank under dense search against its rank under BM25, one dot per golden question"),
        h("desc", { id: "winners-desc" }, `${c.total} questions. Above the diagonal dense search ranks the right passage higher ` +
          `(${c.dense} questions), below it BM25 does (${c.bm25}); ${c.tie} sit on it or tie. The table below lists every one.`),
        // The two halves: above the diagonal (upper right) dense ranks it higher; below, BM25 does.
        h("path", { class: "winners-half winners-half-dense", d: `M${x0} ${y0}H${x0 + span}V${y0 + span}z` }),
        h("path", { class: "winners-half winners-half-bm25", d: `M${x0} ${y0}V${y0 + span}H${x0 + span}z` }),
        h("g", { class: "winners-grid" },
          ticks.map((cell) => [
            h("line", { class: "grid", x1: x0, y1: RAG.fixed(centre(cell, depth, y0), 1), x2: x0 + span, y2: RAG.fixed(centre(cell, depth, y0), 1) }),
            h("line", { class: "grid", x1: RAG.fixed(centre(cell, depth, x0), 1), y1: y0, x2: RAG.fixed(centre(cell, depth, x0), 1), y2: y0 + span })])),
        h("rect", { class: "winners-band", x: x0 + Number(edge(depth)) + GAP / 2, y: y0, width: CELL + GAP / 2, height: span }),
        h("rect", { class: "winners-band", x: x0, y: y0 + Number(edge(depth)) + GAP / 2, width: span, height: CELL + GAP / 2 }),
        h("line", { class: "winners-diagonal", x1: RAG.fixed(centre(1, depth, x0), 1), y1: RAG.fixed(centre(1, depth, y0), 1),
          x2: RAG.fixed(centre(depth + 1, depth, x0), 1), y2: RAG.fixed(centre(depth + 1, depth, y0), 1) }),
        h("g", { class: "winners-ticks" },
          ticks.map((cell) => h("text", { class: "label-muted winners-tick-bm25", x: RAG.fixed(centre(cell, depth, x0), 1), y: y0 + span + 18,
            "text-anchor": "middle", "data-cell": String(cell) }, tickText(cell))),
          ticks.map((cell) => h("text", { class: "label-muted winners-tick-dense", x: x0 - 8, y: RAG.fixed(centre(cell, depth, y0) + 4, 1),
            "text-anchor": "end", "data-cell": String(cell) }, tickText(cell)))),
        h("text", { class: "label winners-axis", x: RAG.fixed(x0 + span / 2, 1), y: y0 + span + 44, "text-anchor": "middle" }, "BM25 rank \u2192"),
        h("text", { class: "label winners-axis", x: 14, y: RAG.fixed(y0 + span / 2, 1), "text-anchor": "middle",
          transform: `rotate(-90 14 ${RAG.fixed(y0 + span / 2, 1)})` }, "\u2190 dense rank"),
        h("g", { class: "winners-spans" }, spans(list, depth)),
        h("g", { class: "winners-dots", role: "list", "aria-label": "The golden questions, one dot each (arrow keys: the next)" },
          list.map((dot) => marker(dot, props)))),
      h("figcaption", null,
        h("ul", { class: "winners-legend" },
          Object.entries(SHAPES).map(([group, shape]) => h("li", null,
            h("span", { class: ["winners-key", `winners-key-${shape}`, `winners-${group}`], "aria-hidden": "true" }),
            { words: "in the help center's words", paraphrase: "paraphrase (no content word shared)", typed: "typed as people type" }[group])),
          h("li", null, h("span", { class: "winners-key winners-key-half-dense", "aria-hidden": "true" }), "upper right: dense ranks it higher"),
          h("li", null, h("span", { class: "winners-key winners-key-half-bm25", "aria-hidden": "true" }), "lower left: BM25 ranks it higher")),
        `Dashed line: the same rank under both. Rank 1 is the top; the band \u201c> ${depth}\u201d holds ranks past the ` +
        `top ${depth} (the lists fusion reads) and passages a list never returns. Questions with the same two ranks sit side by ` +
        "side in their cell. Tap or click a dot to name its question."));
  }

  function picked(props) {
    const row = props.all.find((r) => r.id === props.picked);
    if (!row) return h("p", { class: "winners-picked is-empty js-only", "aria-live": "polite" }, "Tap or click a dot to name its question.");
    return h("p", { class: "winners-picked", "aria-live": "polite" },
      h("span", { class: "qid" }, row.id), ` ${questionWords(row, props.depth)}`);
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

    local: { picked: null, stop: null },

    props(state, input, local) {
      const { rows, counts } = input.own;
      return { ...state, counts, rows: ordered(rows, state, input.data.passages.length + 1), all: rows,
               depth: input.data.settings.fusion_depth, picked: local.picked,
               stop: rows.some((r) => r.id === local.stop) ? local.stop : rows[0].id };
    },

    view(props) {
      return [
        h("p", { class: "lab-status" }, status(props)),
        scatter(props),
        picked(props),
        h("details", { class: "winners-details" },
          h("summary", null, "The table: each question's two ranks, sortable"),
          h("div", { class: "table-scroll" },
          h("table", { class: "winners-table" },
            h("caption", { class: "visually-hidden" }, "Place of the right passage per golden question, under dense search and BM25"),
            h("thead", null, h("tr", null, COLUMNS.map(([column, label, cls]) => h("th", {
              scope: "col", class: cls, "data-sort": column,
              "aria-sort": column === props.sort ? (props.dir === "asc" ? "ascending" : "descending") : undefined,
            }, h("button", { type: "button", class: "sort-button" }, label))))),
            h("tbody", null, props.rows.map(row))))),
      ];
    },

    summary(props) {
      return `${status(props)} Sorted by ${COLUMN_NAMES[props.sort]}, ${props.dir === "asc" ? "ascending" : "descending"}.`;
    },

    setup(ctx) {
      // A tap or click in the scatter names the question of the nearest dot (within a finger's
      // width: the dots are small on a phone), or a dot itself when the pointer is on it.
      ctx.on(ctx.output, "click", (event) => {
        const svg = event.target.closest && event.target.closest("svg.winners-scatter");
        if (!svg) return;
        const dot = RAG.kit.nearestDot(svg.querySelectorAll(".winners-dot"), event);
        ctx.show({ picked: dot ? dot.dataset.qid : null });
      });
      // The keyboard: a dot that takes the focus names its question (and keeps the tab stop);
      // the arrow keys, Home and End move to another question's dot, in golden-set order.
      RAG.kit.roveDots(ctx, "svg.winners-scatter .winners-dot", (dot) => {
        if (ctx.local.picked !== dot.dataset.qid || ctx.local.stop !== dot.dataset.qid) ctx.show({ picked: dot.dataset.qid, stop: dot.dataset.qid });
      }, (dots) => dots.sort((a, b) => a.dataset.order - b.dataset.order));
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
