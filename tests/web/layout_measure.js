// The layout matrix's measure (tests/web/test_layout_matrix.py): called with the board's
// selector, it returns each needed element's box, text sizes, small targets and side scroll.
(board) => {
  const box = (node) => { const r = node.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const shown = (node) => node && !node.hidden && node.getClientRects().length > 0;
  const boards = [...document.querySelectorAll(board)].filter(shown);
  const action = [...document.querySelectorAll(
    "#btn-next:not([disabled]), #choices button, #choices form, #allocate button, #allocate form")].find(shown);
  // The size a player sees: an SVG's text is scaled with its drawing.
  const size = (node) => {
    const css = parseFloat(getComputedStyle(node).fontSize);
    const ctm = node instanceof SVGGraphicsElement ? node.getScreenCTM() : null;
    return ctm ? css * Math.hypot(ctm.a, ctm.b) : css;
  };
  const small = [];
  for (const scope of ["#prompt", "#btn-next", "#choices", "#allocate", ...board.split(", ")]) {
    for (const node of document.querySelectorAll(`${scope}, ${scope} *`)) {
      if (!shown(node) || !node.childNodes.length) continue;
      const own = [...node.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
      if (own) small.push([scope, node.tagName, node.textContent.trim().slice(0, 30), Math.round(size(node) * 10) / 10]);
    }
  }
  // Every secret form the shared tablet shows for a split (a board that needs scrolling at a
  // table is a defect, and so is a form below it).
  const forms = [...document.querySelectorAll("#allocate form.alloc")].filter(shown).map(box);
  const tiny = [...document.querySelectorAll("button, select, input:not([type=checkbox]), summary")]
    .filter(shown).map((n) => [n.textContent.trim().slice(0, 30) || n.getAttribute("aria-label"), n.getBoundingClientRect()])
    .filter(([, r]) => r.height < 44 || r.width < 44).map(([label, r]) => [label, Math.round(r.width), Math.round(r.height)]);
  return { boards: boards.map(box), prompt: box(document.getElementById("prompt")),
    action: action ? box(action) : null, forms, texts: small, tiny,
    scroll: document.documentElement.scrollWidth - document.documentElement.clientWidth };
}
