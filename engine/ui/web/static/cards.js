// Cards drawn as SVG, 100 x 140 units: the rank and suit in the top-left corner (what shows
// when a card is covered by the next in a fan, sideways or downwards), the suit again at the
// top right, a large suit in the middle and the rank upside down at the bottom right.
"use strict";

const Cards = (() => {
  const SUITS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  const RED = { D: true, H: true };

  function parse(text) {
    // '10H' -> ['10', 'H']
    return [text.slice(0, -1), text.slice(-1)];
  }

  function face(text) {
    const [rank, suit] = parse(text);
    const colour = RED[suit] ? "#c8102e" : "#111";
    const symbol = SUITS[suit] || "?";
    const narrow = rank.length > 1 ? ' textLength="29" lengthAdjust="spacingAndGlyphs"' : "";
    return (
      '<svg viewBox="0 0 100 140" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">' +
      '<rect class="face" x="1.5" y="1.5" width="97" height="137" rx="9" fill="#fdfdf8" stroke="#555" stroke-width="2"/>' +
      `<g fill="${colour}" font-family="DejaVu Sans, Arial, sans-serif" font-weight="bold">` +
      `<text x="4" y="30" font-size="31"${narrow}>${rank}</text>` +
      `<text x="6" y="60" font-size="28">${symbol}</text>` +
      `<text x="95" y="30" font-size="28" text-anchor="end">${symbol}</text>` +
      `<text x="50" y="104" font-size="54" text-anchor="middle">${symbol}</text>` +
      `<text x="95" y="132" font-size="24" text-anchor="end">${rank}</text>` +
      "</g></svg>"
    );
  }

  function back() {
    return (
      '<svg viewBox="0 0 100 140" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">' +
      '<defs><pattern id="weave" width="10" height="10" patternUnits="userSpaceOnUse">' +
      '<path d="M0 10 L10 0 M-2 2 L2 -2 M8 12 L12 8" stroke="#8fb3ff" stroke-width="2"/></pattern></defs>' +
      '<rect class="face" x="1.5" y="1.5" width="97" height="137" rx="9" fill="#1c3f94" stroke="#0c1f4d" stroke-width="2"/>' +
      '<rect x="9" y="9" width="82" height="122" rx="5" fill="url(#weave)"/>' +
      "</svg>"
    );
  }

  return { face, back, parse };
})();
