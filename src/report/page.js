// Shows the board of the clicked move in place, without the jump of an anchor, and lets the
// arrow keys step through the game. Without this script the same links are anchors and the
// stylesheet shows the targeted board.
(function () {
  "use strict";
  var root = document.documentElement;
  root.classList.add("js");
  var boards = document.querySelectorAll(".boards .position");
  var last = boards.length - 1;
  var current = last;

  function show(ply, remember) {
    ply = Math.max(0, Math.min(last, ply));
    current = ply;
    boards.forEach(function (b, i) { b.classList.toggle("current", i === ply); });
    document.querySelectorAll(".moves .move, .graph .ply").forEach(function (m) {
      m.classList.toggle("current", Number(m.getAttribute("data-ply")) === ply);
    });
    if (remember && history.replaceState) {
      history.replaceState(null, "", "#ply-" + ply);
    }
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[href^='#ply-']");
    if (!link) return;
    event.preventDefault();
    show(Number(link.getAttribute("href").slice(5)), true);
  });

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var to = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: last }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    show(to, true);
  });

  var asked = /^#ply-(\d+)$/.exec(location.hash);
  show(asked ? Number(asked[1]) : last, false);
})();
