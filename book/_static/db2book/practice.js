// The "Practise" block (book/_ext/practice.py): a chapter's seeded problems, checked with no kernel.
// The practice set (the generator's problems and answers, written at build time) is fetched from the
// page's own site only when the reader opens the block. An answer is right within the generator's own
// tolerance (widgets/exercise_kit.py: |given - answer| <= tolerance x max(|answer|, floor)).
(function () {
  "use strict";

  // --- reading an answer as people type it -------------------------------------------------
  var NUMBER = /^[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?(?:e[+-]?\d+)?$/i;

  function isPercentUnit(unit) { return unit === "%" || unit === "points"; }

  // {value} when `raw` reads as a number for a part in `unit`, {empty} when blank, else {error}
  function parseAnswer(raw, unit, yesNo) {
    var s = raw.trim().replace(/\u2212/g, "-").replace(/[\u00a0\u202f]/g, " ");
    if (s === "") return { empty: true };
    if (unit === yesNo) {
      if (/^(1|yes|y|true)$/i.test(s)) return { value: 1 };
      if (/^(0|no|n|false)$/i.test(s)) return { value: 0 };
      return { error: "answer 1 (yes) or 0 (no)" };
    }
    var percent = /%$/.test(s);
    if (percent) s = s.slice(0, -1).trim();
    else if (unit && s.toLowerCase().endsWith(unit.toLowerCase()) && s.length > unit.length) {
      s = s.slice(0, -unit.length).trim();  // "12 GB" for a part in GB
    }
    if (!/\d/.test(s) || !NUMBER.test(s)) {
      if (/^[+-]?\d+(,\d+)+(\.\d+)?$/.test(s)) {
        return { error: "a comma only separates thousands (1,234.5); write decimals with a point (1234.5)" };
      }
      return { error: "not a number: type digits such as 1,234.5, 1234.5 or -0.5" +
                      (unit ? ", in " + unit : "") };
    }
    var value = parseFloat(s.replace(/,/g, ""));
    if (!isFinite(value)) return { error: "not a finite number" };
    if (percent) {
      if (isPercentUnit(unit)) return { value: value };
      if (unit === "") return { value: value / 100 };  // a fraction: 12% is 0.12
      return { error: "this part is in " + unit + ", not a percent: leave out the % sign" };
    }
    return { value: value };
  }

  function within(value, want, set) {
    return isFinite(value) && Math.abs(value - want) <= set.tolerance * Math.max(Math.abs(want), set.floor);
  }

  // --- the problem's text, laid out for any width -------------------------------------------
  // The generators wrap their text for a terminal: lines are joined into paragraphs, a lettered line
  // "  (a) ..." is a part, and other indented lines (a screen's rows, a planner's output) keep their columns.
  function layout(text) {
    var frag = document.createDocumentFragment(), para = null, list = null, item = null, pre = null;
    text.split("\n").forEach(function (line) {
      if (/^\s+\([a-z]\) /.test(line)) {
        if (!list) { list = el("ul", "db2-practice-asks"); frag.appendChild(list); }
        item = el("li", "", line.trim());
        list.appendChild(item);
        para = pre = null;
      } else if (item && /^\s{4,}\S/.test(line)) {
        item.textContent += " " + line.trim();
      } else if (/^\s+\S/.test(line) && !/^\s+\(/.test(line)) {
        if (!pre) {
          pre = el("pre", "db2-practice-rows", line.replace(/^ {2}/, ""));
          frag.appendChild(pre);
        } else pre.textContent += "\n" + line.replace(/^ {2}/, "");
        para = list = item = null;
      } else if (line.trim()) {
        if (!para) { para = el("p", "", line.trim()); frag.appendChild(para); }
        else para.textContent += " " + line.trim();
        list = item = pre = null;
      }
    });
    return frag;
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function partLabel(part) { return part.letter ? "(" + part.letter + ") " : ""; }

  function unitText(part, set) {
    if (part.unit === set.yes_no) return "1 = yes, 0 = no";
    if (part.unit === "") return "a fraction";
    return part.unit;
  }

  // --- one block ------------------------------------------------------------------------------
  function Block(root) {
    this.root = root;
    this.form = root.querySelector(".db2-practice-form");
    this.status = root.querySelector(".db2-practice-status");
    this.kind = root.querySelector(".db2-practice-kind");
    this.problemBox = root.querySelector(".db2-practice-problem");
    this.partsBox = root.querySelector(".db2-practice-parts");
    this.result = root.querySelector(".db2-practice-result");
    this.solution = root.querySelector(".db2-practice-solution");
    this.solutionBody = root.querySelector(".db2-practice-solution-body");
    this.set = null;
    this.problem = null;
    var self = this;
    root.addEventListener("toggle", function () { if (root.open && !self.set) self.load(); });
    root.querySelector(".db2-practice-another").addEventListener("click", function () { self.draw(true); });
    this.kind.addEventListener("change", function () { self.draw(true); });
    this.form.addEventListener("submit", function (ev) { ev.preventDefault(); self.check(); });
  }

  Block.prototype.load = function () {
    var self = this;
    this.status.textContent = "Loading this chapter's problems\u2026";
    fetch(this.root.getAttribute("data-src"), { credentials: "same-origin" })
      .then(function (r) {
        if (!r.ok) throw new Error("HTTP " + r.status);
        return r.json();
      })
      .then(function (set) {
        self.set = set;
        self.status.textContent = "";
        self.form.hidden = false;
        self.draw(false);
      })
      .catch(function (err) {
        self.status.textContent = "The problems could not be loaded (" + err.message + "). At a terminal, " +
          self.root.getAttribute("data-command") + " -s SEED prints one.";
      });
  };

  // a problem of the chosen kind (any when none), never the one on screen when there is another
  Block.prototype.draw = function (announce) {
    var kind = this.kind.value, current = this.problem;
    var pool = this.set.problems.filter(function (p) { return !kind || p.kind === kind; });
    var others = pool.filter(function (p) { return !current || p.seed !== current.seed; });
    var choices = others.length ? others : pool;
    this.show(choices[Math.floor(Math.random() * choices.length)]);
    if (announce) this.result.textContent = "A new problem: seed " + this.problem.seed + ".";
  };

  Block.prototype.show = function (p) {
    var set = this.set, id = this.root.id;
    this.problem = p;
    this.root.setAttribute("data-seed", String(p.seed));
    var box = this.problemBox;
    box.textContent = "";
    box.appendChild(el("p", "db2-practice-seed", "Problem: seed " + p.seed + ", " + p.kind.replace(/_/g, " ")));
    box.appendChild(layout(p.text));
    var cli = el("p", "db2-practice-cli");
    cli.appendChild(document.createTextNode("At a terminal: "));
    cli.appendChild(el("code", "", set.command + " -s " + p.seed + " -c"));
    cli.appendChild(document.createTextNode(" prints this problem with its answers."));
    box.appendChild(cli);

    this.partsBox.textContent = "";
    p.parts.forEach(function (part, i) {
      var row = el("div", "db2-practice-part");
      var inputId = id + "-part-" + i, markId = inputId + "-mark";
      var label = el("label");
      label.htmlFor = inputId;
      label.appendChild(document.createTextNode(partLabel(part)));
      label.appendChild(el("code", "", part.name));
      label.appendChild(el("span", "db2-practice-unit", " (" + unitText(part, set) + ")"));
      var input = el("input");
      input.type = "text";
      input.id = inputId;
      input.autocomplete = "off";
      input.spellcheck = false;
      input.setAttribute("autocapitalize", "off");
      input.setAttribute("aria-describedby", markId);
      input.setAttribute("data-part", part.name);
      var mark = el("span", "db2-practice-mark");
      mark.id = markId;
      row.appendChild(label);
      row.appendChild(input);
      row.appendChild(mark);
      this.partsBox.appendChild(row);
    }, this);

    this.solution.open = false;
    var body = this.solutionBody;
    body.textContent = "";
    var answers = el("ul", "db2-practice-key");
    p.parts.forEach(function (part) {
      var unit = part.unit === set.yes_no || part.unit === "" ? "" : part.unit === "%" ? "%" : " " + part.unit;
      answers.appendChild(el("li", "", partLabel(part) + part.name + " = " + part.shown + unit));
    });
    body.appendChild(el("p", "", "The generator's answers:"));
    body.appendChild(answers);
    if (p.solution) {
      body.appendChild(el("p", "db2-practice-worked", "Worked solution:"));
      p.solution.split("\n\n").forEach(function (para) { body.appendChild(el("p", "", para.replace(/\n/g, " "))); });
    } else {
      body.appendChild(el("p", "", "For this kind the generator gives its answers, worked by the chapter's " +
                                   "model, but no solution in words."));
    }
    this.result.textContent = "";
  };

  Block.prototype.check = function () {
    var set = this.set, p = this.problem, right = 0, wrong = [], unread = [], blank = [];
    var inputs = this.partsBox.querySelectorAll("input");
    p.parts.forEach(function (part, i) {
      var input = inputs[i], mark = document.getElementById(input.getAttribute("aria-describedby"));
      var name = partLabel(part) + part.name;
      var got = parseAnswer(input.value, part.unit, set.yes_no);
      input.removeAttribute("aria-invalid");
      mark.className = "db2-practice-mark";
      if (got.empty) {
        mark.textContent = "";
        blank.push(name);
      } else if (got.error) {
        input.setAttribute("aria-invalid", "true");
        mark.className += " is-unread";
        mark.textContent = "Can\u2019t read \u201c" + input.value.trim() + "\u201d: " + got.error + ".";
        unread.push(name + ": " + got.error);
      } else if (within(got.value, part.answer, set)) {
        mark.className += " is-right";
        mark.textContent = "\u2713 Right.";
        right += 1;
      } else {
        mark.className += " is-wrong";
        var hint = "";
        if (isPercentUnit(part.unit) && within(got.value * 100, part.answer, set)) {
          hint = " This part is in percent: 12 means 12%.";
        } else if (part.unit === "" && within(got.value / 100, part.answer, set)) {
          hint = " This part is a fraction: 0.12 means 12%.";
        }
        mark.textContent = "\u2717 Not yet." + hint;
        wrong.push(name);
      }
    });
    var n = p.parts.length;
    var summary = right + " of " + n + " part" + (n === 1 ? "" : "s") + " right.";
    if (wrong.length) summary += " Not yet: " + wrong.join(", ") + ".";
    if (unread.length) summary += " Could not read " + unread.join("; ") + ".";
    if (blank.length) summary += " No answer yet: " + blank.join(", ") + ".";
    this.result.textContent = summary;
  };

  function init() {
    var blocks = document.querySelectorAll("details.db2-practice");
    for (var i = 0; i < blocks.length; i++) new Block(blocks[i]);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
