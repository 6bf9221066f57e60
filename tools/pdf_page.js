// One built page of the site, made ready for the print edition (tools/pdf.py runs it in the page, after its
// charts are drawn): info = {path: "chapters/zhyperlink", prefix: "p-chapters-zhyperlink",
// pages: {path: prefix of every page in the edition}}. Returns {html, title, charts}.
// * what paper can't use goes (scripts, sliders, buttons, launch links, hidden code, data disclosures);
// * the chapter's solutions move to a section at its end, each leaving a pointer where it stood;
// * every id gets the page's prefix (the pages share one document), and every reference to one with it;
// * a link to a page of the edition becomes a link inside the PDF with a page reference to fill in
//   (span.db2book-pageref), a link to a page outside the edition plain text; outside links stay.
(info) => {
  const art = document.querySelector('article.bd-article');
  const sanitize = (id) => id.replace(/[^A-Za-z0-9_-]/g, '_');
  const gone = ['script', '.vega-bindings', 'button', '.db2book-reset', '.db2book-live-links', '.db2book-pdf-link',
                'details.db2book-data', '.cell.tag_hide-input > details.hide', 'a.headerlink', '.copybtn',
                'nav.db2book-az'];
  art.querySelectorAll(gone.join(', ')).forEach((e) => e.remove());
  // a chart's caption speaks of the pointer; paper has none
  art.querySelectorAll('.db2book-chart-subtitle').forEach((p) => {
    p.textContent = p.textContent.replace(/ \(hover or tap for [^)]*\)/g, '');
  });

  const top = art.querySelector('section') || art;
  const h1 = art.querySelector('h1');
  const number = h1 && h1.querySelector('.section-number');
  const chapter = number ? number.textContent.trim().replace(/\.$/, '') : '';
  // paper can't open a disclosure: a chapter's ledger rows print open; the whole book's ledger (the fidelity
  // page) would print every chapter's rows a second time, so there only its summary prints (the lessons'
  // table stays online: print.css)
  art.querySelectorAll('details.ledger-details').forEach((d) => {
    if (chapter) { d.open = true; return; }
    const p = document.createElement('p');
    p.className = 'db2book-ledger-pointer';
    p.textContent = d.querySelector('summary').textContent.trim() + ': printed with each chapter’s ledger.';
    d.replaceWith(p);
  });
  const sols = [...art.querySelectorAll('.solution.admonition')];
  if (sols.length) {
    const box = document.createElement('section');
    box.className = 'db2book-solutions';
    box.id = 'db2book-solutions';
    const head = document.createElement('h2');
    head.textContent = chapter ? `Solutions to the exercises of chapter ${chapter}` : 'Solutions';
    box.appendChild(head);
    sols.forEach((s) => {
      s.classList.remove('toggle-hidden', 'dropdown', 'toggle');
      const title = s.querySelector('.admonition-title');
      const pointer = document.createElement('p');
      pointer.className = 'db2book-solution-pointer';
      const link = document.createElement('a');
      link.className = 'reference internal';
      link.setAttribute('href', '#' + s.id);
      link.textContent = (title ? title.textContent : 'Solution').trim();
      pointer.append(link, ': with the chapter’s other solutions, at its end.');
      s.before(pointer);
      box.appendChild(s);
    });
    top.appendChild(box);
  }

  const ids = new Map();
  art.querySelectorAll('[id]').forEach((e) => {
    const id = info.prefix + '-' + sanitize(e.id);
    ids.set(e.id, id);
    e.id = id;
  });
  const local = (id) => ids.get(id) || info.prefix + '-' + sanitize(id);
  const urlRef = /url\(#([^)"']+)\)/g;
  art.querySelectorAll('*').forEach((e) => {
    for (const name of ['clip-path', 'fill', 'stroke', 'mask', 'filter', 'marker-start', 'marker-end', 'style']) {
      const v = e.getAttribute(name);
      if (v && v.includes('url(#')) e.setAttribute(name, v.replace(urlRef, (m, id) => `url(#${local(id)})`));
    }
    for (const name of ['aria-labelledby', 'aria-describedby', 'aria-controls', 'for', 'data-target']) {
      const v = e.getAttribute(name);
      if (v) e.setAttribute(name, v.split(/\s+/).map(local).join(' '));
    }
    if (e.namespaceURI === 'http://www.w3.org/2000/svg') {
      const href = e.getAttribute('href') || e.getAttribute('xlink:href');
      if (href && href.startsWith('#')) e.setAttribute('href', '#' + local(href.slice(1)));
    }
  });

  art.querySelectorAll('img[src]').forEach((img) => img.setAttribute('src', img.src));
  art.querySelectorAll('a[href]').forEach((a) => {
    const url = new URL(a.getAttribute('href'), location.href);
    if (url.origin !== location.origin) return;  // outside the site: print.css prints the address
    const path = decodeURIComponent(url.pathname).replace(/^\//, '').replace(/\.html$/, '');
    const hash = decodeURIComponent(url.hash.slice(1));
    let target;
    if (path === info.path) target = hash ? local(hash) : info.prefix;
    else if (path in info.pages) target = hash ? info.pages[path] + '-' + sanitize(hash) : info.pages[path];
    if (!target) {  // a page the edition leaves out (the teacher's guide...): the words stay, the link goes
      const span = document.createElement('span');
      span.className = 'db2book-unlinked';
      span.append(...a.childNodes);
      a.replaceWith(span);
      return;
    }
    a.setAttribute('href', '#' + target);
    const isTerm = a.querySelector('.std-term');
    const isCitation = a.closest('.bibtex-citation, .footnote-reference, .citation');
    const inTitle = a.closest('h1, h2, h3, h4, h5, h6');
    if (isTerm || isCitation || inTitle || a.classList.contains('footnote-reference')) return;
    // on its own page, only a solution and its exercise point at each other's page
    if (path === info.path && !a.closest('.db2book-solution-pointer, .solution .admonition-title')) return;
    const ref = document.createElement('span');
    ref.className = 'db2book-pageref';
    ref.dataset.target = target;
    ref.textContent = ' (p.\u00a0000)';
    a.after(ref);
  });

  const title = h1 ? h1.textContent.replace(number ? number.textContent : '', '').trim() : document.title;
  const charts = art.querySelectorAll('.db2book-chart svg').length;
  return {html: `<section class="db2book-print-page" id="${info.prefix}">${art.innerHTML}</section>`,
          title, number: chapter, charts};
}
