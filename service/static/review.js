// Job page of the review web UI: keyboard-first editing of the extracted rows.
// Talks to the JSON API (/lab_report/v1/review/...) with the session cookie and the
// page's CSRF token. No framework, no build step.
"use strict";

(function () {
  const data = JSON.parse(document.getElementById("job-data").textContent);
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const table = document.getElementById("results");
  const tbody = table.querySelector("tbody");
  const message = document.getElementById("message");
  const claimStatus = document.getElementById("claim-status");
  const completeButton = document.getElementById("complete");
  const pageImage = document.getElementById("page-image");
  const pageNumber = document.getElementById("page-number");
  const highlight = document.getElementById("highlight");
  const search = document.getElementById("loinc-search");
  const searchInput = document.getElementById("loinc-query");
  const searchList = document.getElementById("loinc-results");
  const addForm = document.getElementById("add-row");
  const metaForm = document.getElementById("metadata");
  const FIELDS = data.fields;
  const LOINC_FIELD = "loinc_code";
  const RANGE_FIELD = "reference_range";

  let results = data.results;
  let uncertain = data.uncertain; // [[index, field], ...]
  let row = 0;
  let col = 0;
  let editing = null; // {cell, input, previous}
  let searchState = null; // {rowIndex, matches, active, timer}
  let deleteArmed = null; // row index armed for deletion by the first "x"
  let notes = data.notes; // [[index, field, note], ...]
  let claimedByMe = data.claimed_by_me;
  let reloading = false; // our own reload keeps the claim
  let confirmArmed = false; // completion asked once about fields still marked

  // --- talking to the API ------------------------------------------------------------

  async function api(method, path, body) {
    const options = { method, headers: { "x-csrf-token": csrf }, credentials: "same-origin" };
    if (body !== undefined) {
      options.headers["content-type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    const response = await fetch(path, options);
    let payload = null;
    if (response.status !== 204) {
      try { payload = await response.json(); } catch (e) { payload = null; }
    }
    if (!response.ok) {
      const detail = payload && payload.detail;
      const text = typeof detail === "string" ? detail : JSON.stringify(detail || response.statusText);
      throw new Error(text);
    }
    return payload;
  }

  function say(text, isError) {
    message.textContent = text;
    message.classList.toggle("error", Boolean(isError));
  }

  // --- rendering -----------------------------------------------------------------------

  function numberText(n) {
    return String(n);
  }

  function rangeText(r) {
    const low = r.min_reference_range;
    const high = r.max_reference_range;
    if (low !== null && high !== null) return numberText(low) + " - " + numberText(high);
    if (high !== null) return "< " + numberText(high);
    if (low !== null) return "> " + numberText(low);
    return "";
  }

  function loincText(r) {
    if (!r.loinc_matches.length) return "— [" + r.loinc_match_status + "]";
    const best = r.loinc_matches[0];
    const text = best.loinc_code + " " + best.display_name;
    return r.loinc_match_status === "auto_match" ? text : text + " [" + r.loinc_match_status + "]";
  }

  function cellText(field, r) {
    switch (field) {
      case "units": return r.units || "";
      case "source_flag": return r.source_flag || "";
      case RANGE_FIELD: return rangeText(r);
      case LOINC_FIELD: return loincText(r);
      default: return r[field] === null || r[field] === undefined ? "" : String(r[field]);
    }
  }

  function rows() {
    return Array.from(tbody.querySelectorAll("tr"));
  }

  function isUncertain(index, field) {
    return uncertain.some(([i, f]) => i === index && f === field);
  }

  function renderRow(index) {
    const tr = rows()[index];
    if (!tr) return;
    FIELDS.forEach((field) => {
      const cell = tr.querySelector('td[data-field="' + field + '"]');
      cell.textContent = cellText(field, results[index]);
      markCell(cell, index, field);
    });
  }

  function markCell(cell, index, field) {
    const flagged = isUncertain(index, field);
    cell.classList.toggle("uncertain", flagged);
    if (flagged) cell.title = "check this field"; else cell.removeAttribute("title");
  }

  function renderMarks() {
    rows().forEach((tr, index) => {
      FIELDS.forEach((field) => markCell(tr.querySelector('td[data-field="' + field + '"]'), index, field));
      tr.querySelector("td.notes").textContent = notes.filter(([i]) => i === index).map((n) => n[2]).join(" ");
    });
  }

  function currentCell() {
    const tr = rows()[row];
    return tr ? tr.querySelector('td[data-field="' + FIELDS[col] + '"]') : null;
  }

  function showPage(number) {
    const page = data.pages.find((p) => p.number === number) || data.pages[0];
    if (!page) return;
    if (pageImage.getAttribute("src") !== page.image_url) {
      pageImage.src = page.image_url;
      pageImage.alt = "Page " + page.number + " of the report";
    }
    pageNumber.textContent = String(page.number);
  }

  function placeHighlight() {
    const r = results[row];
    if (!r || !r.bbox) { highlight.hidden = true; return; }
    showPage(r.page || 1);
    const [x0, y0, x1, y1] = r.bbox;
    // bbox values are fractions of the page size, so percentages of the image box.
    highlight.style.left = (x0 * 100) + "%";
    highlight.style.top = (y0 * 100) + "%";
    highlight.style.width = ((x1 - x0) * 100) + "%";
    highlight.style.height = ((y1 - y0) * 100) + "%";
    highlight.hidden = false;
  }

  function select(newRow, newCol) {
    const all = rows();
    if (!all.length) return;
    row = Math.max(0, Math.min(all.length - 1, newRow));
    col = Math.max(0, Math.min(FIELDS.length - 1, newCol));
    all.forEach((tr, index) => {
      tr.classList.toggle("selected", index === row);
      tr.setAttribute("aria-selected", index === row ? "true" : "false");
    });
    table.querySelectorAll("td.cursor").forEach((cell) => cell.classList.remove("cursor"));
    const cell = currentCell();
    if (cell) {
      cell.classList.add("cursor");
      cell.scrollIntoView({ block: "nearest" });
    }
    deleteArmed = null;
    placeHighlight();
  }

  function nextUncertain(step, from) {
    if (!uncertain.length) { say("No fields left to check."); return; }
    const order = uncertain
      .map(([i, f]) => [i, FIELDS.indexOf(f)])
      .filter(([, c]) => c >= 0)
      .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    if (!order.length) return;
    const here = from === undefined ? row * FIELDS.length + col : from;
    const keys = order.map(([i, c]) => i * FIELDS.length + c);
    let target;
    if (step > 0) {
      target = order[keys.findIndex((k) => k > here)] || order[0];
    } else {
      const before = keys.map((k, i) => [k, i]).filter(([k]) => k < here);
      target = before.length ? order[before[before.length - 1][1]] : order[order.length - 1];
    }
    select(target[0], target[1]);
  }

  // --- editing -------------------------------------------------------------------------

  function startEdit() {
    const cell = currentCell();
    if (!cell || !results[row]) return;
    if (FIELDS[col] === LOINC_FIELD) { openSearch(); return; }
    const input = document.createElement("input");
    input.type = "text";
    input.className = "cell-editor";
    input.value = cellText(FIELDS[col], results[row]);
    input.setAttribute("aria-label", FIELDS[col] + " of row " + (row + 1));
    editing = { cell, input, previous: cell.textContent, index: row, field: FIELDS[col] };
    cell.textContent = "";
    cell.appendChild(input);
    input.focus();
    input.select();
  }

  function cancelEdit() {
    if (!editing) return;
    editing.cell.textContent = editing.previous;
    editing = null;
    say("");
  }

  function parseRange(text) {
    const t = text.trim();
    if (!t) return { min_reference_range: null, max_reference_range: null, reference_range_text: null };
    const num = "([-+]?\\d+(?:[.,]\\d+)*)";
    let m = t.match(new RegExp("^" + num + "\\s*(?:-|–|to)\\s*" + num + "$"));
    // "150,000" is a thousands separator, "3,5" a decimal comma (the parser reads them so too).
    const n = (s) => parseFloat(/^[-+]?[1-9]\d{0,2}(,\d{3})+$/.test(s) ? s.replace(/,/g, "") : s.replace(",", "."));
    if (m) return { min_reference_range: n(m[1]), max_reference_range: n(m[2]), reference_range_text: t };
    m = t.match(new RegExp("^(?:<=?|≤|up ?to)\\s*" + num + "$", "i"));
    if (m) return { min_reference_range: null, max_reference_range: n(m[1]), reference_range_text: t };
    m = t.match(new RegExp("^(?:>=?|≥)\\s*" + num + "$"));
    if (m) return { min_reference_range: n(m[1]), max_reference_range: null, reference_range_text: t };
    return null;
  }

  async function saveEdit() {
    if (!editing) return;
    const { input, index, field } = editing;
    const text = input.value.trim();
    let changes;
    if (field === RANGE_FIELD) {
      changes = parseRange(text);
      if (!changes) { say("Write the range as 'low - high', '< high' or '> low'.", true); return; }
    } else if (field === "test_name" || field === "value") {
      if (!text) { say("The " + field.replace("_", " ") + " cannot be empty.", true); return; }
      changes = { [field]: text };
    } else {
      changes = { [field]: text || null };
    }
    try {
      await patch(index, changes); // renders the saved row
      editing = null;
      select(index, col);
    } catch (error) {
      say(error.message, true);
      input.focus();
    }
  }

  async function patch(index, changes) {
    const answer = await api("PATCH", data.api + "/results/" + index, changes);
    results[index] = answer.result;
    uncertain = answer.uncertain.map((u) => [u.index, u.field]);
    notes = answer.notes.map((n) => [n.index, n.field, n.note]);
    renderRow(index);
    renderMarks();
    const fields = answer.changes.filter((c) => c.action === "update").map((c) => c.field).filter((f) => f).join(", ");
    let text = "Saved row " + (index + 1) + (fields ? " (" + fields + ")" : "") + ".";
    if (answer.changes.some((c) => c.action === "rematch")) text += " " + candidatesText(answer.result);
    say(text);
    edited();
    return answer;
  }

  // A corrected name or unit ran the LOINC matcher again: show what it proposes now.
  function candidatesText(r) {
    if (!r.loinc_matches.length) return "LOINC matched again: no code fits; press / to search.";
    const list = r.loinc_matches.map((m) => m.loinc_code + " " + m.display_name + " (" + m.confidence_score.toFixed(2) + ")");
    return "LOINC matched again [" + r.loinc_match_status + "]: " + list.join("; ") + ". Press / to choose another.";
  }

  // --- LOINC search --------------------------------------------------------------------

  function openSearch() {
    if (!results[row]) return;
    searchState = { rowIndex: row, matches: [], active: -1, timer: null };
    search.hidden = false;
    searchInput.value = results[row].test_name;
    searchInput.focus();
    searchInput.select();
    runSearch();
  }

  function closeSearch() {
    if (searchState && searchState.timer) clearTimeout(searchState.timer);
    searchState = null;
    search.hidden = true;
    searchList.textContent = "";
    select(row, col);
  }

  async function runSearch() {
    const state = searchState;
    const q = searchInput.value.trim();
    if (!state || !q) { searchList.textContent = ""; return; }
    try {
      const answer = await api("GET", data.api_root + "/loinc/search?q=" + encodeURIComponent(q));
      if (state !== searchState || searchInput.value.trim() !== q) return; // a newer query won
      state.matches = answer.matches;
      state.active = answer.matches.length ? 0 : -1;
      renderMatches();
    } catch (error) {
      say(error.message, true);
    }
  }

  function renderMatches() {
    searchList.textContent = "";
    searchState.matches.forEach((m, i) => {
      const item = document.createElement("li");
      item.setAttribute("role", "option");
      item.dataset.code = m.loinc_code;
      item.textContent = m.loinc_code + " " + m.display_name + " (" + m.loinc_name + ")";
      item.classList.toggle("active", i === searchState.active);
      item.setAttribute("aria-selected", i === searchState.active ? "true" : "false");
      item.addEventListener("click", () => { searchState.active = i; applySearch(); });
      searchList.appendChild(item);
    });
  }

  async function applySearch() {
    const state = searchState;
    if (!state) return;
    const typed = searchInput.value.trim();
    let code = null;
    if (state.active >= 0 && state.matches[state.active]) code = state.matches[state.active].loinc_code;
    else if (/^\d{1,8}-\d$/.test(typed)) code = typed;
    if (!code) { say("Choose a LOINC code from the list.", true); return; }
    try {
      await patch(state.rowIndex, { loinc_code: code });
      closeSearch();
    } catch (error) {
      say(error.message, true);
    }
  }

  searchInput.addEventListener("input", () => {
    if (!searchState) return;
    clearTimeout(searchState.timer);
    searchState.timer = setTimeout(runSearch, 150);
  });

  searchInput.addEventListener("keydown", (event) => {
    if (!searchState) return;
    const count = searchState.matches.length;
    if (event.key === "ArrowDown" && count) {
      searchState.active = (searchState.active + 1) % count;
      renderMatches();
    } else if (event.key === "ArrowUp" && count) {
      searchState.active = (searchState.active - 1 + count) % count;
      renderMatches();
    } else if (event.key === "Enter") {
      applySearch();
    } else if (event.key === "Escape") {
      closeSearch();
    } else {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
  });

  // --- rows added or removed: the server renders the table again ----------------------

  function reloadAt(index) {
    reloading = true; // the change claimed the job; the reloaded page shows the claim
    sessionStorage.setItem("review-cursor:" + data.api, JSON.stringify([index, col]));
    window.location.reload();
  }

  addForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const fields = {};
    new FormData(addForm).forEach((value, key) => { if (String(value).trim()) fields[key] = String(value).trim(); });
    if (!fields.test_name || !fields.value) { say("A new row needs a test name and a value.", true); return; }
    try {
      const answer = await api("POST", data.api + "/results", fields);
      reloadAt(answer.index);
    } catch (error) {
      say(error.message, true);
    }
  });

  addForm.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      event.preventDefault();
      addForm.reset();
      document.activeElement.blur();
      select(row, col);
    }
  });

  async function deleteRow() {
    if (deleteArmed !== row) {
      deleteArmed = row;
      say("Press x again to delete row " + (row + 1) + " (" + results[row].test_name + ").");
      return;
    }
    try {
      await api("DELETE", data.api + "/results/" + row);
      reloadAt(Math.max(0, row - 1));
    } catch (error) {
      say(error.message, true);
    }
  }

  // --- claim and completion ------------------------------------------------------------

  // Looking is free: the job is claimed at the first change (or "c"), released on leaving or Esc.

  function showClaim(text, isError) {
    claimStatus.textContent = text;
    claimStatus.classList.toggle("error", Boolean(isError));
  }

  function showInitialClaim() {
    if (data.status !== "pending_review") {
      showClaim("This job is " + data.status + "; it can no longer be changed.");
    } else if (data.claimed_by && !data.claimed_by_me) {
      showClaim("Claimed by " + data.claimed_by + " until " + new Date(data.claim_expires_at).toLocaleTimeString() +
        "; you can look, not change.", true);
    } else if (claimedByMe) {
      showClaim("Claimed by you until " + new Date(data.claim_expires_at).toLocaleTimeString() + ".");
    } else {
      showClaim("Not claimed: your first change claims it (or press c).");
    }
  }

  async function claim() {
    if (data.status !== "pending_review") return;
    try {
      const answer = await api("POST", data.api + "/claim");
      claimedByMe = true;
      showClaim("Claimed by you until " + new Date(answer.expires_at).toLocaleTimeString() + ".");
    } catch (error) {
      showClaim(error.message, true);
    }
  }

  function edited() {
    // The server claimed the job with the change; renew to learn (and show) until when.
    if (!claimedByMe) claim();
  }

  async function release() {
    if (!claimedByMe) { say(""); return; }
    try {
      await api("DELETE", data.api + "/claim");
      claimedByMe = false;
      showClaim("Released: others may take the job. Your next change claims it again.");
      say("");
    } catch (error) {
      say(error.message, true);
    }
  }

  window.addEventListener("pagehide", () => {
    if (!claimedByMe || reloading) return;
    // keepalive lets the request outlive the page.
    fetch(data.api + "/claim", {
      method: "DELETE", headers: { "x-csrf-token": csrf }, credentials: "same-origin", keepalive: true,
    });
  });

  function markedCount() {
    return uncertain.length;
  }

  function armConfirmation(count) {
    confirmArmed = true;
    completeButton.classList.add("confirming");
    completeButton.textContent = "Confirm " + count + " marked field" + (count === 1 ? "" : "s") + " as read and complete";
    say(count + " field" + (count === 1 ? " is" : "s are") + " still marked uncertain. Check " +
      (count === 1 ? "it" : "them") + " (n jumps to the next), or press Complete / Ctrl+Enter again " +
      "to confirm you read " + (count === 1 ? "it" : "them") + " as shown.", true);
  }

  async function complete() {
    if (editing) { say("Save or cancel the open edit first.", true); return; }
    if (markedCount() && !confirmArmed) { armConfirmation(markedCount()); return; }
    completeButton.disabled = true;
    try {
      await api("POST", data.api + "/complete", { confirm_uncertain: confirmArmed });
      claimedByMe = false;
      say("Completed. Back to the queue…");
      window.location.assign("/review/queue");
    } catch (error) {
      completeButton.disabled = false;
      if (/still marked uncertain/.test(error.message) && !confirmArmed) {
        armConfirmation(Number(error.message.split(" ")[0]) || 1);
      } else {
        say(error.message, true);
      }
    }
  }

  // --- report details (metadata) ---------------------------------------------------------

  const metaInputs = Array.from(metaForm.querySelectorAll("[data-field]"));
  let savedMeta = Object.fromEntries(metaInputs.map((el) => [el.dataset.field, el.value]));

  metaInputs.forEach((el) => el.addEventListener("input", () => {
    el.classList.toggle("changed", el.value !== savedMeta[el.dataset.field]);
  }));

  metaForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const changes = {};
    metaInputs.forEach((el) => {
      if (el.value !== savedMeta[el.dataset.field]) changes[el.dataset.field] = el.value.trim() || null;
    });
    if (!Object.keys(changes).length) { say("No report details changed."); return; }
    try {
      const answer = await api("PATCH", data.api + "/metadata", changes);
      metaInputs.forEach((el) => {
        const value = answer.metadata[el.dataset.field];
        el.value = value === null || value === undefined ? "" : value;
        el.classList.remove("changed");
      });
      savedMeta = Object.fromEntries(metaInputs.map((el) => [el.dataset.field, el.value]));
      uncertain = answer.uncertain.map((u) => [u.index, u.field]);
      renderMarks();
      say("Saved report details (" + answer.changes.map((c) => c.field.replace("metadata.", "")).join(", ") + ").");
      edited();
    } catch (error) {
      say(error.message, true);
    }
  });

  metaForm.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      document.activeElement.blur();
      select(row, col);
    }
  });

  completeButton.addEventListener("click", complete);

  // --- keyboard ------------------------------------------------------------------------

  document.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      if (editing) { saveEdit().then(() => { if (!editing) complete(); }); } else { complete(); }
      return;
    }
    if (editing) {
      if (event.key === "Enter") { event.preventDefault(); saveEdit(); }
      else if (event.key === "Escape") { event.preventDefault(); cancelEdit(); }
      return;
    }
    if (searchState) return; // the search box handles its own keys
    const target = event.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLButtonElement ||
        target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement ||
        event.altKey || event.ctrlKey || event.metaKey) {
      return; // typing in a form, or pressing a focused button
    }
    const handlers = {
      j: () => select(row + 1, col), ArrowDown: () => select(row + 1, col),
      k: () => select(row - 1, col), ArrowUp: () => select(row - 1, col),
      l: () => select(row, col + 1), ArrowRight: () => select(row, col + 1),
      h: () => select(row, col - 1), ArrowLeft: () => select(row, col - 1),
      n: () => nextUncertain(1), p: () => nextUncertain(-1),
      Enter: startEdit,
      "/": () => { select(row, FIELDS.indexOf(LOINC_FIELD)); openSearch(); },
      a: () => addForm.querySelector("input").focus(),
      x: deleteRow,
      m: () => { metaInputs[0].focus(); metaInputs[0].select(); },
      c: claim,
      Escape: () => { if (deleteArmed !== null) { deleteArmed = null; say(""); } else { release(); } },
    };
    const handler = handlers[event.key];
    if (handler) {
      event.preventDefault();
      handler();
    }
  });

  // A click selects the clicked cell too, for reviewers who use a mouse.
  tbody.addEventListener("click", (event) => {
    const cell = event.target.closest("td");
    const tr = event.target.closest("tr");
    if (!cell || !tr || editing) return;
    const field = FIELDS.indexOf(cell.dataset.field);
    select(rows().indexOf(tr), field >= 0 ? field : col);
  });

  // --- start ---------------------------------------------------------------------------

  const saved = sessionStorage.getItem("review-cursor:" + data.api);
  sessionStorage.removeItem("review-cursor:" + data.api);
  if (saved) {
    const [savedRow, savedCol] = JSON.parse(saved);
    select(savedRow, savedCol);
  } else if (uncertain.length) {
    nextUncertain(1, -1); // start on the first field to check
  } else {
    select(0, 0);
  }
  if (!rows().length) say("The parser found no rows: add the missed ones (a) or complete.");
  showInitialClaim();
})();
