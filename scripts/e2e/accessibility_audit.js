// A small accessibility audit run in the page by the browser tests (axe-core is not available
// offline). It returns a list of problems; an empty list passes. It checks:
//   - the document has a language and a title, and ids are unique;
//   - every visible form control has a label (label element, aria-label or aria-labelledby);
//   - every image has an alt attribute (empty only when it is decorative);
//   - every visible button and link has a name a screen reader can read;
//   - text contrast against its effective background: at least 4.5:1, or 3:1 for large text
//     (WCAG 2.2 1.4.3); disabled controls are exempt, as WCAG allows.
return (function () {
  const problems = [];
  const describe = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
    (el.getAttribute("name") ? "[name=" + el.getAttribute("name") + "]" : "") +
    (el.className && typeof el.className === "string" ? "." + el.className.split(" ").join(".") : "");
  const visible = (el) => {
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    return style.visibility !== "hidden" && style.display !== "none" && box.width > 0 && box.height > 0 && !el.closest("[hidden]");
  };
  const textOf = (ids) => ids.split(/\s+/).map((id) => document.getElementById(id)).filter(Boolean)
    .map((el) => el.textContent.trim()).join(" ").trim();
  const accessibleName = (el) => {
    if (el.getAttribute("aria-labelledby")) return textOf(el.getAttribute("aria-labelledby"));
    if (el.getAttribute("aria-label")) return el.getAttribute("aria-label").trim();
    if (el.labels && el.labels.length) return Array.from(el.labels).map((l) => l.textContent.trim()).join(" ").trim();
    if (el.tagName === "IMG") return (el.getAttribute("alt") || "").trim();
    const images = Array.from(el.querySelectorAll("img[alt]")).map((img) => img.alt).join(" ");
    return (el.textContent.trim() + " " + images).trim() || (el.getAttribute("title") || "").trim();
  };

  if (!document.documentElement.lang) problems.push("html has no lang attribute");
  if (!document.title.trim()) problems.push("the page has no title");
  const ids = new Map();
  for (const el of document.querySelectorAll("[id]")) ids.set(el.id, (ids.get(el.id) || 0) + 1);
  for (const [id, count] of ids) if (count > 1) problems.push("id " + id + " is used " + count + " times");

  for (const el of document.querySelectorAll("input, select, textarea")) {
    if (el.type === "hidden" || !visible(el)) continue;
    if (!accessibleName(el)) problems.push("form control without a label: " + describe(el));
  }
  for (const el of document.querySelectorAll("img")) {
    if (!el.hasAttribute("alt")) problems.push("image without alt text: " + el.getAttribute("src"));
  }
  for (const el of document.querySelectorAll("button, a[href]")) {
    if (visible(el) && !accessibleName(el)) problems.push("control without a name: " + describe(el));
  }

  const parse = (color) => {
    const parts = color.match(/[\d.]+/g);
    if (!parts || parts.length < 3) return null;
    return { r: +parts[0], g: +parts[1], b: +parts[2], a: parts.length > 3 ? +parts[3] : 1 };
  };
  const over = (top, bottom) => ({
    r: top.r * top.a + bottom.r * (1 - top.a), g: top.g * top.a + bottom.g * (1 - top.a),
    b: top.b * top.a + bottom.b * (1 - top.a), a: 1,
  });
  const background = (el) => {
    const layers = [];
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      const color = parse(getComputedStyle(node).backgroundColor);
      if (color && color.a > 0) {
        layers.push(color);
        if (color.a >= 1) break;
      }
    }
    let result = { r: 255, g: 255, b: 255, a: 1 };
    for (const layer of layers.reverse()) result = over(layer, result);
    return result;
  };
  const luminance = (c) => {
    const channel = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
  };
  const ratio = (a, b) => {
    const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (light + 0.05) / (dark + 0.05);
  };
  const seen = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || !el || seen.has(el) || !visible(el)) continue;
    seen.add(el);
    if (el.closest("button:disabled, input:disabled")) continue;
    const style = getComputedStyle(el);
    const foreground = parse(style.color);
    if (!foreground) continue;
    const back = background(el);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && parseInt(style.fontWeight, 10) >= 700);
    const needed = large ? 3 : 4.5;
    const measured = ratio(over(foreground, back), back);
    if (measured < needed) {
      problems.push("contrast " + measured.toFixed(2) + ":1 (needs " + needed + ":1) for \"" +
        node.textContent.trim().slice(0, 40) + "\" in " + describe(el));
    }
  }
  return problems;
})();
