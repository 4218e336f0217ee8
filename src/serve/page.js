// The board page: asks the server for a session, draws every view it answers with, and
// listens to its events (the engine's moves, the analysis lines). The server keeps the game
// and judges every move; the page only shows it and sends what the person does.
(function () {
  "use strict";
  var id = null;
  var view = null;
  var selected = null;
  var flipped = false;
  // The analysis lines of generation `linesOf`, which may be ahead of the view shown: a
  // search that ends at once can send its lines before the answer that started it arrives.
  var lines = {};
  var linesOf = -1;
  var drag = null;
  var justDragged = false;
  var events = null;
  var seat = null;

  function $(name) { return document.getElementById(name); }

  function say(text, error) {
    $("message").textContent = text || "";
    $("message").className = error ? "error" : "";
  }

  function call(path, body) {
    return fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body)
    }).then(function (r) {
      return r.json().then(function (json) {
        if (!r.ok) throw new Error(json.error || r.statusText);
        return json;
      });
    });
  }

  function act(body) {
    if (!id) return Promise.resolve();
    return call("/api/sessions/" + id, body).then(function (v) {
      show(v);
      say(v.note || "");
    }, function (e) { say(e.message, true); });
  }

  function settings() {
    var you = $("you").value;
    return {
      rules: $("rules").value,
      engine: you === "both" ? "none" : (you === "attackers" ? "defenders" : "attackers"),
      level: Number($("level").value),
      movetime: Number($("movetime").value)
    };
  }

  function start() {
    call("/api/sessions", settings()).then(function (answer) {
      id = answer.id;
      listen();
      show(answer.view);
    }, function (e) { say(e.message, true); $("status").textContent = "No session"; });
  }

  function listen() {
    events = new EventSource("/api/sessions/" + id + "/events");
    events.addEventListener("state", function (e) { show(JSON.parse(e.data)); });
    events.addEventListener("info", function (e) { info(JSON.parse(e.data)); });
    events.onerror = function () {
      if (events.readyState === EventSource.CLOSED) {
        say("The session has ended: reload the page for a new one.", true);
      }
    };
  }

  // A page left for another keeps no engine busy, even in the browser's back-forward cache:
  // its stream closes and the server ends the session. Back on the page, a new one starts.
  window.addEventListener("pagehide", function () { if (events) events.close(); });
  window.addEventListener("pageshow", function (e) { if (e.persisted) location.reload(); });

  // Square names to drawing coordinates: files left to right, the first rank at the bottom.
  function corner(square) {
    var file = square.charCodeAt(0) - 97;
    var rank = Number(square.slice(1)) - 1;
    return [view.margin + file * view.cell, view.margin + (view.side - 1 - rank) * view.cell];
  }

  function element(name, attributes, parent) {
    var e = document.createElementNS(parent.namespaceURI, name);
    Object.keys(attributes).forEach(function (k) { e.setAttribute(k, attributes[k]); });
    parent.appendChild(e);
    return e;
  }

  // The lines of the position shown.
  function shownLines() {
    return view && linesOf === view.generation ? lines : {};
  }

  function show(v) {
    // An answer overtaken by an event (the engine's move, the analysis's end) is stale.
    if (view && (v.serial < view.serial || v.generation < view.generation)) return;
    if (v.generation > linesOf) {
      lines = {};
      linesOf = v.generation;
    }
    view = v;
    selected = null;
    $("table").innerHTML = v.svg;
    arrange();
    drawSquares();
    drawMarks();
    // The form shows who plays as a load or "Engine, move" left it; a choice for the next
    // game made meanwhile stays until that changes again.
    if (v.engine !== seat) {
      seat = v.engine;
      $("you").value = { none: "both", attackers: "defenders", defenders: "attackers" }[seat];
    }
    $("fen").value = v.fen;
    var status = $("status");
    var side = v.to_move === "attackers" ? "Attackers" : "Defenders";
    if (v.ending) {
      status.textContent = v.ending.text;
      status.dataset.state = "over";
    } else if (v.thinking) {
      status.textContent = side + " to move: Hnefi is thinking…";
      status.dataset.state = "thinking";
    } else {
      status.textContent = side + " to move" + (v.engine === "none" ? "" : " (you)");
      status.dataset.state = "move";
    }
    status.dataset.ply = v.ply;
    $("ply").textContent = "move " + v.ply + " / " + v.moves.length;
    $("analyse").textContent = v.analysis ? "Stop" : "Start";
    $("lines").value = String(v.lines);
    moves();
    showLines();
    ["record", "otg", "report"].forEach(function (kind) {
      $("export-" + kind).href = "/api/sessions/" + id + "/export/" + kind;
    });
  }

  // The drawing goes into a group that turns half round when the board is flipped, everything
  // drawn on it later too. The coordinates leave the shared drawing of the empty board, to be
  // written upright either way round.
  function arrange() {
    var svg = $("table").querySelector("svg");
    var board = element("g", { "class": "turned" }, svg);
    Array.prototype.slice.call(svg.childNodes).forEach(function (n) {
      if (n !== board && n.nodeName !== "defs") board.appendChild(n);
    });
    var label = svg.querySelector("defs text");
    if (label) {
      label.parentNode.setAttribute("class", "labels");
      svg.appendChild(label.parentNode);
    }
  }

  // The board turned or not: the king turned back to keep its crown upright, and the labels,
  // which stay at the bottom and the left, renamed.
  function orient() {
    var svg = $("table").querySelector("svg");
    var n = view.side, middle = view.margin + n * view.cell / 2;
    svg.classList.toggle("flipped", flipped);
    var turn = function (e, x, y) {
      if (flipped) e.setAttribute("transform", "rotate(180 " + x + " " + y + ")");
      else e.removeAttribute("transform");
    };
    turn(svg.querySelector(".turned"), middle, middle);
    svg.querySelectorAll(".turned > use[href='#k']").forEach(function (king) {
      turn(king, king.getAttribute("x"), king.getAttribute("y"));
    });
    // The files first, then the ranks, as the drawing writes them.
    svg.querySelectorAll(".labels text").forEach(function (t, i) {
      var k = i % n, shown = flipped ? n - 1 - k : k;
      t.textContent = i < n ? String.fromCharCode(97 + shown) : String(shown + 1);
    });
  }

  // The squares to click, on top of the drawing, made once a view.
  function drawSquares() {
    var svg = $("table").querySelector("svg");
    var hits = element("g", { "class": "hits" }, svg.querySelector(".turned"));
    view.squares.forEach(function (s) {
      var c = corner(s);
      element("rect", { "class": "hit", "data-square": s, x: c[0], y: c[1],
        width: view.cell, height: view.cell }, hits);
    });
  }

  // The piece chosen, its targets and what each would capture, under the squares to click;
  // the squares say what a click on them does.
  function drawMarks() {
    var svg = $("table").querySelector("svg");
    orient();
    var marks = layer("marks");
    var from = {};
    view.legal.forEach(function (m) { from[m.from] = true; });
    var targets = view.legal.filter(function (m) { return m.from === selected; });
    var target = {};
    targets.forEach(function (m) { target[m.to] = m; });
    if (selected) {
      var c = corner(selected);
      element("rect", { "class": "selected", x: c[0], y: c[1], width: view.cell, height: view.cell }, marks);
    }
    targets.forEach(function (m) {
      var c = corner(m.to);
      element("circle", { "class": "dot" + (m.captures.length ? " capture" : ""),
        cx: c[0] + view.cell / 2, cy: c[1] + view.cell / 2, r: view.cell * 0.16 }, marks);
      m.captures.forEach(function (s) {
        var t = corner(s);
        element("rect", { "class": "threat", x: t[0] + 3, y: t[1] + 3,
          width: view.cell - 6, height: view.cell - 6, rx: 6 }, marks);
      });
    });
    svg.querySelectorAll(".hit").forEach(function (hit) {
      var s = hit.getAttribute("data-square");
      hit.classList.toggle("movable", !!from[s]);
      hit.classList.toggle("target", !!target[s]);
      hit.classList.toggle("capture", !!(target[s] && target[s].captures.length));
    });
  }

  // An empty group of this class under the squares to click, in place of the old one.
  function layer(name) {
    var svg = $("table").querySelector("svg");
    var old = svg.querySelector("." + name);
    if (old) old.remove();
    var hits = svg.querySelector(".hits");
    var g = document.createElementNS(svg.namespaceURI, "g");
    g.setAttribute("class", name);
    hits.parentNode.insertBefore(g, hits);
    return g;
  }

  // The first move of each line shown as an arrow, the best line's the boldest and on top.
  function drawArrows() {
    var group = layer("arrows");
    if (!view.analysis) return;
    var style = { 1: [9, 0.9], 2: [6.5, 0.6], 3: [5, 0.45] };
    var lines = shownLines();
    Object.keys(lines).sort().reverse().forEach(function (rank) {
      var move = /^([a-z]\d+)-([a-z]\d+)/.exec(lines[rank].moves[0] || "");
      if (!move) return;
      var width = style[rank][0], head = width * 2.2, half = view.cell / 2;
      var a = corner(move[1]), b = corner(move[2]);
      var x1 = a[0] + half, y1 = a[1] + half, x2 = b[0] + half, y2 = b[1] + half;
      var length = Math.hypot(x2 - x1, y2 - y1) || 1;
      var ux = (x2 - x1) / length, uy = (y2 - y1) / length;
      var bx = x2 - ux * head, by = y2 - uy * head, wing = head * 0.6;
      var g = element("g", { "class": "arrow", "data-rank": rank, "data-from": move[1],
        "data-to": move[2], opacity: style[rank][1] }, group);
      element("line", { x1: x1, y1: y1, x2: bx, y2: by, "stroke-width": width }, g);
      element("polygon", { points: [x2, y2, bx - uy * wing, by + ux * wing,
        bx + uy * wing, by - ux * wing].join(" ") }, g);
    });
  }

  function play(moves) {
    selected = null;
    act({ "do": "play", moves: moves });
  }

  function chooseSquare(square) {
    var move = view.legal.filter(function (m) { return m.from === selected && m.to === square; })[0];
    if (move) return play([move.from + "-" + move.to]);
    var movable = view.legal.some(function (m) { return m.from === square; });
    selected = movable && selected !== square ? square : null;
    drawMarks();
  }

  $("table").addEventListener("click", function (e) {
    if (justDragged) { justDragged = false; return; }
    var hit = e.target.closest && e.target.closest(".hit");
    if (hit) chooseSquare(hit.getAttribute("data-square"));
  });

  // Dragging a piece: it follows the pointer and drops on a target, or goes back.
  function pieceAt(square) {
    var c = corner(square);
    var x = c[0] + view.cell / 2, y = c[1] + view.cell / 2;
    var pieces = $("table").querySelectorAll(".turned > use");
    for (var i = 0; i < pieces.length; i++) {
      if (Number(pieces[i].getAttribute("x")) === x && Number(pieces[i].getAttribute("y")) === y) return pieces[i];
    }
    return null;
  }

  $("table").addEventListener("pointerdown", function (e) {
    var hit = e.target.closest && e.target.closest(".hit.movable");
    if (!hit || e.button !== 0) return;
    drag = { square: hit.getAttribute("data-square"), x: e.clientX, y: e.clientY, moved: false };
  });

  document.addEventListener("pointermove", function (e) {
    if (!drag) return;
    var dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 6) return;
    if (!drag.moved) {
      drag.moved = true;
      selected = drag.square;
      drawMarks();
      drag.piece = pieceAt(drag.square);
      if (drag.piece) {
        drag.piece.classList.add("dragging");
        drag.turn = drag.piece.getAttribute("transform") || "";
      }
    }
    var svg = $("table").querySelector("svg");
    var scale = svg.viewBox.baseVal.width / svg.getBoundingClientRect().width * (flipped ? -1 : 1);
    if (drag.piece) {
      drag.piece.setAttribute("transform",
        "translate(" + dx * scale + " " + dy * scale + ") " + drag.turn);
    }
  });

  document.addEventListener("pointerup", function (e) {
    if (!drag) return;
    var d = drag;
    drag = null;
    if (!d.moved) return;
    justDragged = true;
    if (d.piece) {
      if (d.turn) d.piece.setAttribute("transform", d.turn); else d.piece.removeAttribute("transform");
      d.piece.classList.remove("dragging");
    }
    var under = document.elementFromPoint(e.clientX, e.clientY);
    var hit = under && under.closest && under.closest(".hit");
    if (hit && hit.getAttribute("data-square") !== d.square) chooseSquare(hit.getAttribute("data-square"));
  });

  function add(parent, tag, className, text) {
    var e = document.createElement(tag);
    e.className = className;
    e.textContent = text;
    parent.appendChild(e);
    return e;
  }

  // A row a move number, the attackers' move and the defenders'.
  function moves() {
    var list = $("moves");
    list.innerHTML = "";
    var row = null, number = null;
    view.moves.forEach(function (m) {
      if (m.number !== number) {
        number = m.number;
        row = add(list, "li", "", "");
        add(row, "span", "number", number + ".");
        if (m.side === "defenders") add(row, "span", "move empty", "…");
      }
      add(row, "a", "move" + (m.ply === view.ply ? " current" : ""), m.text).dataset.ply = m.ply;
    });
    // The list scrolls by itself, never the page, to keep the current move in view.
    var current = list.querySelector(".current");
    if (!current) {
      list.scrollTop = 0;
      return;
    }
    var top = current.parentNode.offsetTop, bottom = top + current.parentNode.offsetHeight;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
  }

  $("moves").addEventListener("click", function (e) {
    var a = e.target.closest("a.move");
    if (a) act({ "do": "goto", ply: Number(a.dataset.ply) });
  });

  function info(line) {
    if (!view || line.generation < view.generation || line.generation < linesOf) return;
    if (line.generation > linesOf) {
      lines = {};
      linesOf = line.generation;
    }
    lines[line.rank] = line;
    showLines();
  }

  function percent(x) { return Math.round(x * 100) + "%"; }

  // The bar: the attackers' chance by the best line, else the result of a game over, and
  // greyed out while nothing is analysed. A search that has ended (a solved position, or its
  // time cap) leaves its last word on the bar until the position shown changes.
  function showBar() {
    var bar = $("evalbar"), best = shownLines()[1], end = !best && view.ending;
    var won = end && { attackers: 1, defenders: 0 }[end.winner];
    var chance = best ? best.chance : end ? (won === undefined ? 0.5 : won) : null;
    var known = chance !== null;
    var state = end ? "over" : !view.analysis ? "off" : view.analysing ? "analysing" : "done";
    bar.dataset.state = state;
    bar.classList.toggle("off", state === "off");
    bar.title = end ? end.text : best ? "Attackers' chance " + percent(best.chance) +
      " (" + best.score + "), depth " + best.depth + (state === "done" ? ", search ended" : "") :
      "The attackers' chance of winning, from the analysis's best line";
    // Off, the bar is one colour, so that its words say how to start on a plain ground.
    bar.querySelector(".fill").style.width = known ? percent(chance) : state === "off" ? "0%" : "50%";
    bar.querySelector(".attackers").textContent = "Attackers" + (known ? " " + percent(chance) : "");
    bar.querySelector(".defenders").textContent = (known ? percent(1 - chance) + " " : "") + "Defenders";
    // A forced result is final; a score where the search stopped is marked as its last.
    var solved = best && / win in \d+$/.test(best.score);
    bar.querySelector(".state").textContent = {
      over: "",
      off: "analysis off: Start under Analysis",
      analysing: best ? best.score : "analysing…",
      done: best ? best.score + (solved ? "" : " · search ended") : "search ended"
    }[state];
  }

  function showLines() {
    var box = $("lines-shown");
    box.innerHTML = "";
    showBar();
    drawArrows();
    var lines = shownLines();
    Object.keys(lines).sort().forEach(function (rank) {
      var line = lines[rank];
      var div = document.createElement("div");
      div.className = "line";
      div.dataset.rank = rank;
      var chance = document.createElement("span");
      chance.className = "chance";
      chance.textContent = "attackers " + percent(line.chance);
      chance.title = line.score;
      var about = document.createElement("span");
      about.className = "about";
      about.textContent = "depth " + line.depth + " · " + Math.round(line.nps / 1000) + " kN/s";
      div.appendChild(chance);
      div.appendChild(about);
      line.moves.forEach(function (text, i) {
        var b = document.createElement("button");
        b.type = "button";
        b.className = "pv";
        b.textContent = text;
        b.addEventListener("click", function () { play(line.moves.slice(0, i + 1)); });
        div.appendChild(b);
      });
      box.appendChild(div);
    });
  }

  function go(ply) {
    if (!view) return;
    ply = Math.max(0, Math.min(view.moves.length, ply));
    if (ply !== view.ply) act({ "do": "goto", ply: ply });
  }

  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || !view) return;
    if (/^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement.tagName)) return;
    var to = { ArrowLeft: view.ply - 1, ArrowRight: view.ply + 1, Home: 0, End: view.moves.length }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    go(to);
  });

  $("first").addEventListener("click", function () { go(0); });
  $("previous").addEventListener("click", function () { go(view.ply - 1); });
  $("next").addEventListener("click", function () { go(view.ply + 1); });
  $("last").addEventListener("click", function () { go(view.moves.length); });
  $("takeback").addEventListener("click", function () { act({ "do": "takeback" }); });
  $("engine-move").addEventListener("click", function () { act({ "do": "engine" }); });
  $("flip").addEventListener("click", function () { flipped = !flipped; drawMarks(); });
  $("new-game").addEventListener("submit", function (e) {
    e.preventDefault();
    var s = settings();
    s["do"] = "new";
    if (id) act(s); else start();
  });
  $("analyse").addEventListener("click", function () {
    act({ "do": "analyse", on: !view.analysis, lines: Number($("lines").value) });
  });
  $("lines").addEventListener("change", function () {
    act({ "do": "analyse", on: view.analysis, lines: Number($("lines").value) });
  });
  $("load").addEventListener("click", function () {
    act({ "do": "load", text: $("load-text").value });
  });
  $("copy-fen").addEventListener("click", function () {
    var box = $("fen");
    box.select();
    var copied = function () { say("FEN copied"); };
    var by_hand = function () {
      if (document.execCommand("copy")) copied(); else say("Select the FEN and copy it.");
    };
    if (navigator.clipboard) navigator.clipboard.writeText(box.value).then(copied, by_hand);
    else by_hand();
  });
  $("load-file").addEventListener("change", function () {
    var file = this.files[0];
    if (!file) return;
    file.text().then(function (text) {
      $("load-text").value = text;
      act({ "do": "load", text: text });
    });
  });

  start();
})();
