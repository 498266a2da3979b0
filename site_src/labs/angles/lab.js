/* Cosine as an angle: a question and three passages as arrows of length 1 from one point, each
 * passage at its true angle to the question (arccos of the cosine, site_src/labs/angles/data.py),
 * above or below it as the build chose; below it, each passage's cosine and angle, and the
 * angles between the passages on the plane and as they are in all the vector's dimensions.
 * Two arrows closer than APART degrees on the plane would hide each other and stack their labels:
 * they are drawn APART degrees apart (spread()), and a note under the drawing names them, their
 * angle on the plane, and says that they were moved; the tables keep the exact angles.
 * State: {q}: a preset question id (one with a known right passage). */
(() => {
  const h = RAG.h;
  const WIDTH = 360;                // the drawing's width, in SVG units (its height fits what it holds)
  const CENTRE = [170, 150];
  const RADIUS = 112;
  const ROLE = { right: "right passage", near: "near miss", far: "least alike" };
  const at1 = (v) => RAG.fixed(v, 1);
  const degrees = (v) => `${RAG.fixed(v, 1)}\u00b0`;
  const cosine = (v) => RAG.fixed(v, 3).replace("-", "\u2212");
  const APART = 6;                  // degrees: arrows closer than this on the plane are drawn this far apart

  /**
   * Where each arrow is drawn, as a signed angle from the question (+ above, - below): the
   * plane's, except that arrows closer than APART are pushed apart until every neighbour is
   * APART away, the question's arrow never moving (a pair is pushed apart by halves; a passage
   * next to the question is pushed away from it). Returns the drawn angles, one per passage.
   * Arrows near 180 degrees on opposite sides are not checked (no cosine here comes near -1).
   * Example: spread([{angle: 80.6, side: 1}, {angle: 81.0, side: 1}]) -> [77.8, 83.8] (to 0.1)
   */
  function spread(passages) {
    const arrows = [{ at: 0, fixed: true }, ...passages.map((p, i) => ({ at: p.side * p.angle, i }))];
    for (let pass = 0; pass < 50; pass++) {
      arrows.sort((a, b) => a.at - b.at);
      let moved = false;
      for (let j = 0; j + 1 < arrows.length; j++) {
        const [low, high] = [arrows[j], arrows[j + 1]];
        const need = APART - (high.at - low.at);
        if (need <= 1e-9) continue;
        moved = true;
        if (low.fixed) high.at += need;
        else if (high.fixed) low.at -= need;
        else { low.at -= need / 2; high.at += need / 2; }
      }
      if (!moved) break;
    }
    return passages.map((p, i) => arrows.find((a) => a.i === i).at);
  }

  /** The pairs of arrows closer than APART on the plane (a passage and the question, or two
   *  passages: their angle on the plane is data.py's drawn_angle), with that angle: what the
   *  note says was moved. */
  function crowded(props) {
    const close = props.passages.filter((p) => p.angle < APART).map((p) => ({ a: "question", b: p.id, apart: p.angle }));
    return close.concat(props.pairs.filter((pair) => pair.drawn < APART).map((pair) => ({ a: pair.a, b: pair.b, apart: pair.drawn })));
  }

  /** Where an arrow of length r at `angle` degrees from the question (pointing right) ends. */
  function tip(angle, side, r) {
    const radians = (angle * Math.PI) / 180;
    return [CENTRE[0] + r * Math.cos(radians), CENTRE[1] - side * r * Math.sin(radians)];
  }

  /**
   * Each label just beyond its arrow's tip, anchored away from the arrow; a label that would
   * overlap one placed before it moves further out, one line at a time, and none crosses the
   * frame's sides. Boxes are estimated
   * from the monospace font (LABEL_EM wide per character, LINE high).
   */
  const LABEL_EM = 7.8;
  const LINE = 15;
  function labels(arrows) {
    const placed = [];
    return arrows.map(({ xy: [x, y], text }) => {
      const length = Math.hypot(x - CENTRE[0], y - CENTRE[1]);
      const [ux, uy] = [(x - CENTRE[0]) / length, (y - CENTRE[1]) / length];
      const anchor = ux > 0.08 ? "start" : ux < -0.08 ? "end" : "middle";  // near-upright arrows too, so close labels fan out
      const width = text.length * LABEL_EM;
      const left = (lx) => (anchor === "start" ? lx : anchor === "end" ? lx - width : lx - width / 2);
      let [lx, ly] = [x + 8 * ux, y + 10 * uy + (uy > 0.2 ? 10 : uy > -0.2 ? 4 : 0)];
      lx += Math.max(0, 4 - left(lx)) - Math.max(0, left(lx) + width - (WIDTH - 4));  // inside the frame
      const hits = () => placed.some((box) => left(lx) < box.right && box.left < left(lx) + width && Math.abs(ly - box.y) < LINE);
      for (let tries = 0; hits() && tries < 6; tries++) ly += uy > 0 ? LINE : -LINE;
      placed.push({ left: left(lx), right: left(lx) + width, y: ly });
      return { x: lx, y: ly, anchor, text };
    });
  }

  function arrow(cls, [x, y], label) {
    const [cx, cy] = CENTRE;
    const length = Math.hypot(x - cx, y - cy);
    const [ux, uy] = [(x - cx) / length, (y - cy) / length];
    const head = [[x, y], [x - 10 * ux + 4.5 * uy, y - 10 * uy - 4.5 * ux], [x - 10 * ux - 4.5 * uy, y - 10 * uy + 4.5 * ux]];
    return h("g", { class: ["angles-arrow", cls] },
      h("line", { x1: at1(cx), y1: at1(cy), x2: at1(x - 6 * ux), y2: at1(y - 6 * uy) }),
      h("path", { class: "angles-head", d: "M" + head.map(([px, py]) => at1(px) + " " + at1(py)).join("L") + "z" }),
      h("text", { class: "angles-label", x: at1(label.x), y: at1(label.y), "text-anchor": label.anchor }, label.text));
  }

  function arc(cls, angle, side, r) {
    const [x, y] = tip(angle, side, r);
    return h("path", { class: ["angles-arc", cls], d: `M${at1(CENTRE[0] + r)} ${at1(CENTRE[1])}A${r} ${r} 0 0 ${side > 0 ? 0 : 1} ${at1(x)} ${at1(y)}` });
  }

  /** The circle of length 1, or the half of it that holds the arrows. */
  function unitCircle(above, below) {
    const [cx, cy] = CENTRE;
    if (above && below) return h("circle", { class: "angles-unit", cx: at1(cx), cy: at1(cy), r: String(RADIUS) });
    return h("path", { class: "angles-unit", d: `M${at1(cx + RADIUS)} ${at1(cy)}A${RADIUS} ${RADIUS} 0 0 ${above ? 0 : 1} ${at1(cx - RADIUS)} ${at1(cy)}` });
  }

  function drawing(props) {
    const at = spread(props.passages);
    const shown = props.passages.map((p, i) => ({ ...p, angle: Math.abs(at[i]), side: at[i] < 0 ? -1 : 1 }));
    const arrows = [{ cls: "angles-question", xy: [CENTRE[0] + RADIUS, CENTRE[1]], text: "question" },
      ...shown.map((p) => ({ cls: `angles-${p.role}`, xy: tip(p.angle, p.side, RADIUS), text: p.id }))];
    const placed = labels(arrows);
    // Only the half circles that hold an arrow, and room for the labels.
    const top = Math.min(CENTRE[1] - 20, ...placed.map((l) => l.y - LINE)) - 6;
    const bottom = Math.max(CENTRE[1] + 20, ...placed.map((l) => l.y + 5), ...arrows.map((a) => a.xy[1] + 6)) + 6;
    const low = shown.some((p) => p.side < 0) ? CENTRE[1] + RADIUS + 10 : bottom;
    const high = shown.some((p) => p.side > 0) ? CENTRE[1] - RADIUS - 10 : top;
    const [y0, y1] = [Math.floor(Math.min(top, high)), Math.ceil(Math.max(bottom, low))];
    return h("svg", { class: "angles-drawing", viewBox: `0 ${y0} ${WIDTH} ${y1 - y0}`, role: "img", "aria-labelledby": "angles-title angles-desc" },
      h("title", { id: "angles-title" }, "The question and three passages as arrows, each passage at its true angle to the question"),
      h("desc", { id: "angles-desc" }, `\u201c${props.text}\u201d points right. ` + props.passages.map((p) =>
        `${p.id}, the ${ROLE[p.role]}: ${degrees(p.angle)} ${p.side > 0 ? "above" : "below"} it`).join("; ") + "."),
      unitCircle(shown.some((p) => p.side > 0), shown.some((p) => p.side < 0)),
      shown.map((p, i) => arc(`angles-${p.role}`, p.angle, p.side, 26 + 13 * i)),
      arrows.map((a, i) => arrow(a.cls, a.xy, placed[i])));
  }

  function status(props) {
    const [right, near] = props.passages;
    const closer = right.angle <= near.angle
      ? ["the right passage, ", h("code", null, right.id), ` (${degrees(right.angle)}), points closer to the question than the near miss, `,
        h("code", null, near.id), ` (${degrees(near.angle)}).`]
      : ["the near miss, ", h("code", null, near.id), ` (${degrees(near.angle)}), points closer to the question than the right passage, `,
        h("code", null, right.id), ` (${degrees(right.angle)}), so dense search ranks it higher.`];
    return [`\u201c${props.text}\u201d: `, ...closer];
  }

  function loss(props) {
    const worst = props.pairs[props.worst];
    const kept = crowded(props).length ? "Kept exactly, but for the arrows moved apart: each passage's angle to the question."
      : "Kept exactly: each passage's angle to the question.";
    return [kept, " Lost: the angles between the passages; the worst here is ",
      h("code", null, worst.a), " and ", h("code", null, worst.b), `, ${degrees(worst.drawn)} apart on the plane, really ${degrees(worst.angle)}.`];
  }

  /** Under the drawing, when arrows were moved: which, how close they are on the plane, how far apart they are drawn. */
  function moved(props) {
    const pairs = crowded(props);
    if (!pairs.length) return null;
    const named = (id) => (id === "question" ? "the question" : h("code", null, id));
    return h("p", { class: "angles-moved" }, "Moved apart to be read: ",
      pairs.map((pair, i) => [i ? (i === pairs.length - 1 ? " and " : ", ") : null, named(pair.a), " and ", named(pair.b),
        ` are ${degrees(pair.apart)} apart on this plane`]),
      `, so their arrows are drawn ${APART}\u00b0 apart (one would hide the other). The angles in the tables are exact.`);
  }

  RAG.lab("angles", {
    accept(next, input) {
      return input.own.questions[next.q] ? { q: next.q } : null;
    },

    props(state, input) {
      const { passages, pairs, worst } = input.own.questions[state.q];
      return { text: input.question(state.q).text, passages, pairs, worst, dimensions: input.data.model.dimensions };
    },

    view(props) {
      return [
        h("p", { class: "lab-status" }, status(props)),
        h("div", { class: "angles-layout" },
          h("figure", { class: "angles-figure" }, drawing(props), moved(props)),
          h("div", { class: "angles-tables" },
            h("table", { class: "angles-table" },
              h("caption", null, "Each passage against the question"),
              h("thead", null, h("tr", null, h("th", { scope: "col" }, "Passage"), h("th", { scope: "col", class: "num" }, "Cosine"),
                h("th", { scope: "col", class: "num" }, "Angle"))),
              h("tbody", null, props.passages.map((p) => h("tr", { class: `angles-${p.role}`, "data-pid": p.id },
                h("th", { scope: "row" }, h("span", { class: "angles-swatch", "aria-hidden": "true" }), h("code", null, p.id), " ",
                  h("span", { class: "angles-role" }, ROLE[p.role])),
                h("td", { class: "num" }, cosine(p.cosine)), h("td", { class: "num" }, degrees(p.angle)))))),
            h("table", { class: "angles-table" },
              h("caption", null, `Between the passages: on the drawing, and in all ${props.dimensions} dimensions`),
              h("thead", null, h("tr", null, h("th", { scope: "col" }, "Pair"), h("th", { scope: "col", class: "num" }, "On the plane"),
                h("th", { scope: "col", class: "num" }, "Cosine"), h("th", { scope: "col", class: "num" }, "True angle"))),
              h("tbody", null, props.pairs.map((pair) => h("tr", null,
                h("th", { scope: "row" }, h("code", null, pair.a), " and ", h("code", null, pair.b)),
                h("td", { class: "num" }, degrees(pair.drawn)), h("td", { class: "num" }, cosine(pair.cosine)),
                h("td", { class: "num" }, degrees(pair.angle)))))))),
        h("p", { class: "angles-loss" }, loss(props)),
      ];
    },

    summary(props) {
      const flat = (parts) => parts.map((part) => (typeof part === "string" ? part : part.props.children)).join("");
      return flat(status(props));
    },
  });
})();
