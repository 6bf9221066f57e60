// The book's own page script, inline in every page's head (a few hundred bytes, no request).
// sphinx-togglebutton makes a solution's whole title a toggle, but its click handler knows only
// the title, its button and the button's icon: a click on anything else in the title (the
// "Exercise N" link of a solution's title) threw "button is not defined". A link in the title
// goes where it points; a click on other text in it toggles the box, as a click on the title does.
document.addEventListener('click', function (e) {
  var t = e.target, title = t.closest && t.closest('.admonition.dropdown > .admonition-title');
  if (!title || t === title) return;
  var button = t.closest('button.toggle-button');
  if (button && (t === button || t.tagName === 'polyline' || (t.classList && t.classList.contains('tb-icon')))) return;
  e.stopPropagation();
  if (!t.closest('a')) title.click();
}, true);
