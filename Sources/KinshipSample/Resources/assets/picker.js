// The friend picker: asks the sample app's server for friends matching the search (pinyin and
// initials are matched there, by KinshipContacts), shows them in sections with an A–Z index, and
// keeps the people ticked across searches until Done or Cancel.
"use strict";

(function () {
  const opener = document.getElementById("open-picker");
  const dialog = document.getElementById("picker");
  if (!opener || !dialog) return;

  const search = document.getElementById("picker-search");
  const list = document.getElementById("picker-list");
  const index = document.getElementById("picker-index");
  const status = document.getElementById("picker-status");
  const problem = document.getElementById("picker-problem");
  const picked = document.getElementById("picked");
  const pickedList = document.getElementById("picked-list");
  const chosen = new Map();
  let confirmed = new Map();
  let timer = null;
  let latest = 0;

  function sortOrder() {
    const checked = dialog.querySelector("input[name=sort]:checked");
    return checked ? checked.value : "first";
  }

  async function load() {
    const ticket = ++latest;
    const query = new URLSearchParams({ q: search.value, sort: sortOrder() });
    status.textContent = "Loading…";
    let answer;
    try {
      const response = await fetch("/sample/friends.json?" + query, { headers: { Accept: "application/json" } });
      answer = await response.json();
    } catch (error) {
      answer = { sections: [], index: [], problem: { title: "Kinship did not answer", message: "The friend list could not be loaded. Try again in a moment." } };
    }
    if (ticket === latest) show(answer);
  }

  function show(answer) {
    list.replaceChildren();
    index.replaceChildren();
    problem.hidden = !answer.problem;
    if (answer.problem) {
      document.getElementById("picker-problem-message").textContent = answer.problem.title + ". " + answer.problem.message;
      const action = document.getElementById("picker-problem-action");
      action.hidden = !answer.problem.action;
      if (answer.problem.action) {
        action.textContent = answer.problem.action.label;
        action.href = answer.problem.action.href;
      }
    }
    for (const section of answer.sections) {
      const heading = document.createElement("h3");
      heading.id = "section-" + section.title;
      heading.textContent = section.title;
      list.append(heading);
      for (const friend of section.friends) list.append(row(friend));
      const jump = document.createElement("a");
      jump.href = "#" + heading.id;
      jump.textContent = section.title;
      jump.setAttribute("aria-label", "Jump to " + section.title);
      jump.addEventListener("click", (event) => {
        event.preventDefault();
        heading.scrollIntoView({ block: "start" });
        const first = heading.nextElementSibling && heading.nextElementSibling.querySelector("input");
        if (first) first.focus({ preventScroll: true });
      });
      index.append(jump);
    }
    if (answer.problem) status.textContent = "";
    else if (answer.matched === 0) status.textContent = "Nobody matches “" + search.value + "”.";
    else status.textContent = answer.matched + (answer.matched === 1 ? " friend" : " friends") + (search.value ? " match" : "") + ". " + chosen.size + " picked.";
  }

  function row(friend) {
    const label = document.createElement("label");
    label.className = "friend";
    const box = document.createElement("input");
    box.type = "checkbox";
    box.value = friend.id;
    box.checked = chosen.has(friend.id);
    box.addEventListener("change", () => {
      if (box.checked) chosen.set(friend.id, friend.name);
      else chosen.delete(friend.id);
      status.textContent = status.textContent.replace(/\d+ picked\.$/, chosen.size + " picked.");
    });
    label.append(box);
    if (friend.picture_url) {
      const image = document.createElement("img");
      image.className = "avatar";
      image.src = friend.picture_url;
      image.alt = "";
      image.width = 36;
      image.height = 36;
      label.append(image);
    }
    const name = document.createElement("span");
    name.textContent = friend.name;
    label.append(name);
    return label;
  }

  opener.addEventListener("click", () => {
    chosen.clear();
    for (const [id, name] of confirmed) chosen.set(id, name);
    search.value = "";
    dialog.showModal();
    search.focus();
    load();
  });
  search.addEventListener("keydown", (event) => {
    if (event.key === "Enter") event.preventDefault();
  });
  search.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(load, 300);
  });
  for (const radio of dialog.querySelectorAll("input[name=sort]")) radio.addEventListener("change", load);
  document.getElementById("picker-cancel").addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => opener.focus());
  document.getElementById("picker-done").addEventListener("click", () => {
    confirmed = new Map(chosen);
    pickedList.replaceChildren();
    for (const name of confirmed.values()) {
      const item = document.createElement("li");
      item.textContent = name;
      pickedList.append(item);
    }
    picked.hidden = confirmed.size === 0;
    dialog.close();
  });
})();
