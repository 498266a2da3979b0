/* lab-permissions.js: pre-filter vs post-filter for one reader, one question, one k.
 *
 * Replays data.permissions (and data.measure.permissions_extra for the extra questions):
 * the lists the build computed with engine/access.py over the dense ranking. A passage the
 * chosen reader may not read is never named in that reader's view.
 */
(function () {
  "use strict";

  RAG.registerLab("permissions", function (lab, data) {
    var el = RAG.el;
    var m = data.measure;
    var passages = {};
    data.passages.forEach(function (p) { passages[p.id] = p; });
    var questions = {};
    data.questions.forEach(function (q) { questions[q.id] = q; });
    var roles = Object.keys(data.permissions);
    var ks = m.permission_ks.map(String);

    var state = { reader: lab.dataset.reader, q: lab.dataset.q, k: String(lab.dataset.k) };

    function listsFor(s) {
      var runs = data.permissions[s.reader].runs;
      var byK = runs[s.q] || m.permissions_extra[s.reader][s.q];
      return byK[s.k];
    }

    function apply(values) {
      if (roles.indexOf(values.reader) >= 0) state.reader = values.reader;
      if (m.permission_questions.indexOf(values.q) >= 0) state.q = values.q;
      if (ks.indexOf(String(values.k)) >= 0) state.k = String(values.k);
    }

    function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

    function row(rank, pid, score, top, answer) {
      var p = passages[pid];
      var staff = p.acl.indexOf("staff") >= 0;
      var badges = null;
      if (pid === answer || staff) {
        badges = el("span", { class: "badges" },
          pid === answer ? el("span", { class: "badge badge-ok" }, "right passage") : null,
          staff ? el("span", { class: "badge badge-staff" }, "staff only") : null);
      }
      return el("li", { class: ["result", pid === answer ? "is-answer" : ""] },
        el("span", { class: "rank" }, String(rank)),
        el("span", { class: "pid" }, el("code", null, pid), " ", el("span", { class: "title" }, p.section)),
        el("meter", { class: "score-bar", min: "0", max: String(top), value: String(score), "aria-hidden": "true" }),
        el("span", { class: "score" }, RAG.fixed(score, 3)),
        badges);
    }

    function droppedRow(rank) {
      return el("li", { class: "result is-removed perm-dropped" },
        el("span", { class: "rank" }, String(rank)),
        el("span", { class: "pid" }, el("span", { class: "title" }, "dropped after the search")),
        el("span", { class: "score", "aria-hidden": "true" }, "\u2013"),
        el("p", { class: "detail" },
          "A passage this reader may not read took this place; the filter removed it and nothing replaced it."));
    }

    function lesson(lists, k, label) {
      var dropped = k - lists.post.length;
      if (dropped) {
        return "The search spent " + dropped + " of its " + k + " places on passages this reader" +
          " may not read, so the post-filter returns " + lists.post.length + "; the pre-filter searched only " +
          "what this reader may read and still returns " + lists.pre.length + ".";
      }
      if (m.hidden_from[state.reader].length) {
        return "No passage this reader may not read ranked in the top " + k + ", so both filters return the same " +
          lists.post.length + ". Post-filtering only shows its cost when a restricted passage ranks high.";
      }
      return label + " may read every passage, so both filters return the same " + lists.post.length +
        ", staff-only runbooks included.";
    }

    var output = lab.querySelector(".lab-output");
    var status = output.querySelector(".lab-status");
    var preTitle = output.querySelector(".perm-pre h4");
    var preList = output.querySelector(".perm-pre ol.results");
    var postTitle = output.querySelector(".perm-post h4");
    var postList = output.querySelector(".perm-post ol.results");
    var lessonBox = output.querySelector(".lab-lesson");
    var readerInputs = lab.querySelectorAll('input[name="permissions-reader"]');
    var kInputs = lab.querySelectorAll('input[name="permissions-k"]');
    var select = lab.querySelector('select[name="permissions-q"]');

    function render() {
      var k = Number(state.k);
      var lists = listsFor(state);
      var ranked = data.runs[state.q].dense;
      var top = ranked[0][1];
      var answer = questions[state.q].answer;
      var scores = {};
      ranked.forEach(function (pair) { scores[pair[0]] = pair[1]; });
      var label = data.permissions[state.reader].label;

      Array.prototype.forEach.call(readerInputs, function (input) { input.checked = input.value === state.reader; });
      Array.prototype.forEach.call(kInputs, function (input) { input.checked = input.value === state.k; });
      select.value = state.q;

      status.textContent = label + ", k = " + k + ": the pre-filter returns " + plural(lists.pre.length, "passage") +
        ", the post-filter " + lists.post.length + ".";
      preTitle.textContent = "Pre-filter \u00b7 " + lists.pre.length + " of " + k;
      postTitle.textContent = "Post-filter \u00b7 " + lists.post.length + " of " + k;
      RAG.replace(preList, lists.pre.map(function (pid, i) { return row(i + 1, pid, scores[pid], top, answer); }));
      RAG.replace(postList, ranked.slice(0, k).map(function (pair, i) {
        return lists.post.indexOf(pair[0]) >= 0 ? row(i + 1, pair[0], pair[1], top, answer) : droppedRow(i + 1);
      }));
      lessonBox.textContent = lesson(lists, k, label);
    }

    function changed() {
      RAG.writeHashState("permissions", state);
      render();
    }

    Array.prototype.forEach.call(readerInputs, function (input) {
      input.addEventListener("change", function () { state.reader = input.value; changed(); });
    });
    Array.prototype.forEach.call(kInputs, function (input) {
      input.addEventListener("change", function () { state.k = input.value; changed(); });
    });
    select.addEventListener("change", function () { state.q = select.value; changed(); });
    lab.addEventListener("rag:hashstate", function (event) { apply(event.detail); render(); });

    apply(RAG.readHashState("permissions"));
    render();
  });
})();
