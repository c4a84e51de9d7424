// Queue page: j/k or arrows move through the jobs, Enter opens the selected one, / filters.
"use strict";

(function () {
  const table = document.getElementById("queue");
  if (!table) {
    const filterOnly = document.getElementById("queue-filter");
    document.addEventListener("keydown", (event) => {
      if (event.key === "/" && filterOnly && event.target !== filterOnly) { event.preventDefault(); filterOnly.focus(); }
    });
    return;
  }
  const rows = Array.from(table.querySelectorAll("tbody tr"));
  let current = 0;

  function select(index) {
    current = Math.max(0, Math.min(rows.length - 1, index));
    rows.forEach((tr, i) => {
      tr.classList.toggle("selected", i === current);
      tr.setAttribute("aria-selected", i === current ? "true" : "false");
    });
    rows[current].scrollIntoView({ block: "nearest" });
  }

  const filter = document.getElementById("queue-filter");

  document.addEventListener("keydown", (event) => {
    const target = event.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement ||
        event.ctrlKey || event.altKey || event.metaKey) return;
    if (event.key === "/" && filter) { event.preventDefault(); filter.focus(); filter.select(); return; }
    if (event.key === "j" || event.key === "ArrowDown") select(current + 1);
    else if (event.key === "k" || event.key === "ArrowUp") select(current - 1);
    else if (event.key === "Enter" && !(event.target instanceof HTMLButtonElement)) {
      window.location.assign(rows[current].dataset.href);
    } else return;
    event.preventDefault();
  });

  select(0);
})();
