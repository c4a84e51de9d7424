// Queue page: j/k or arrows move through the jobs, Enter opens the selected one.
"use strict";

(function () {
  const table = document.getElementById("queue");
  if (!table) return;
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

  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement || event.ctrlKey || event.altKey || event.metaKey) return;
    if (event.key === "j" || event.key === "ArrowDown") select(current + 1);
    else if (event.key === "k" || event.key === "ArrowUp") select(current - 1);
    else if (event.key === "Enter" && !(event.target instanceof HTMLButtonElement)) {
      window.location.assign(rows[current].dataset.href);
    } else return;
    event.preventDefault();
  });

  select(0);
})();
