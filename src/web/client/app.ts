// Progressive enhancement of the server-rendered pages: glossary tooltips, search as you type, diff filters.
// Every page works without it.
import { numberOfShortAnchor } from '../../core/ruleNumber.js';

/** Glossary tooltips: a term link shows its definition (from the page's glossary box) on hover and on focus. */
function tooltips(): void {
  const tip = document.createElement('div');
  tip.id = 'term-tip';
  tip.className = 'tip';
  tip.setAttribute('role', 'tooltip');
  tip.hidden = true;
  document.body.append(tip);
  let current: HTMLElement | null = null;
  const hide = (): void => {
    tip.hidden = true;
    current?.removeAttribute('aria-describedby');
    current = null;
  };
  const show = (term: HTMLElement): void => {
    const def = document.getElementById(term.dataset.term ?? '');
    if (!def) return;
    current?.removeAttribute('aria-describedby');
    current = term;
    tip.innerHTML = '';
    const dt = def.querySelector('dt');
    const dd = def.querySelector('dd');
    const head = document.createElement('strong');
    head.textContent = dt?.textContent ?? '';
    const body = document.createElement('span');
    body.textContent = ` ${dd?.textContent ?? ''}`;
    tip.append(head, body);
    tip.hidden = false;
    term.setAttribute('aria-describedby', tip.id);
    const r = term.getBoundingClientRect();
    const width = Math.min(360, document.documentElement.clientWidth - 16);
    tip.style.maxWidth = `${width}px`;
    const left = Math.max(8, Math.min(r.left + window.scrollX, window.scrollX + document.documentElement.clientWidth - width - 8));
    tip.style.left = `${left}px`;
    tip.style.top = `${r.bottom + window.scrollY + 6}px`;
  };
  const termOf = (t: EventTarget | null): HTMLElement | null => (t instanceof Element ? t.closest<HTMLElement>('a.term') : null);
  document.addEventListener('mouseover', (e) => {
    const t = termOf(e.target);
    if (t && t !== current) show(t);
  });
  document.addEventListener('mouseout', (e) => {
    const t = termOf(e.target);
    if (t && t === current && !t.contains(e.relatedTarget as Node | null)) hide();
  });
  document.addEventListener('focusin', (e) => {
    const t = termOf(e.target);
    if (t) show(t);
  });
  document.addEventListener('focusout', (e) => {
    if (termOf(e.target) === current) hide();
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') hide();
  });
  // a tap (phones have no hover) shows the definition in place instead of jumping to the glossary box
  document.addEventListener('click', (e) => {
    const t = termOf(e.target);
    if (t) {
      // (a tap also sends mouseover and focus, which showed it already: a click never toggles it off)
      e.preventDefault();
      show(t);
    } else if (!(e.target instanceof Node && tip.contains(e.target))) hide();
  });
}

/** Search as you type: the results list is replaced by the server's live fragment (prefix search). */
function liveSearch(form: HTMLFormElement): void {
  const input = form.querySelector<HTMLInputElement>('input[name=q]');
  const edition = form.querySelector<HTMLSelectElement>('select[name=edition]');
  if (!input) return;
  let timer = 0;
  // Answers may arrive out of order: only the latest request's is shown (none is aborted, none fails).
  let latest = 0;
  const run = async (): Promise<void> => {
    const params = new URLSearchParams({ q: input.value, edition: edition?.value ?? 'latest' });
    const mine = ++latest;
    const res = await fetch(`/search?${params}&live=1`);
    const text = await res.text();
    const results = document.getElementById('results');
    if (!res.ok || !results || mine !== latest) return;
    const tpl = document.createElement('template');
    tpl.innerHTML = text;
    // the live region stays; its content changes, so screen readers announce the new count
    const fresh = tpl.content.firstElementChild;
    if (fresh) results.replaceChildren(...fresh.childNodes);
    history.replaceState(null, '', `/search?${params}`);
  };
  const schedule = (): void => {
    clearTimeout(timer);
    timer = window.setTimeout(() => void run(), 150);
  };
  input.addEventListener('input', schedule);
  edition?.addEventListener('change', schedule);
}

/** Diff page: the view and the filters apply at once (the form still submits them without scripts). */
function diffFilters(form: HTMLFormElement): void {
  const changes = document.getElementById('changes');
  if (!changes) return;
  const shown = form.querySelector('.shown');
  const read = () => {
    const data = new FormData(form);
    const view = data.get('view') === 'side' ? 'side' : 'inline';
    const picked = data.get('section');
    const section = typeof picked === 'string' ? picked : '';
    const kinds = new Set(data.getAll('kind').map(String));
    const params = new URLSearchParams();
    if (section) params.set('section', section);
    if (kinds.size < form.querySelectorAll('input[name=kind]').length) for (const k of kinds) params.append('kind', k);
    if (view === 'side') params.set('view', 'side');
    const q = params.toString();
    return { view, section, kinds, url: q ? `${location.pathname}?${q}` : location.pathname };
  };
  const apply = (e?: Event): void => {
    const f = read();
    changes.classList.toggle('view-side', f.view === 'side');
    changes.classList.toggle('view-inline', f.view === 'inline');
    // a page the server filtered lacks the other changes: ask for the new filter's page
    const onlyView = e?.target instanceof HTMLInputElement && e.target.name === 'view';
    // a section scopes the whole page (counts, renumbering, examples, glossary): the server's page for it
    const newSection = e?.target instanceof HTMLSelectElement && e.target.name === 'section';
    if ((changes.dataset.filtered !== undefined && !onlyView) || newSection) {
      location.assign(f.url);
      return;
    }
    if (onlyView) {
      // the same changes in another view: the page of a paged diff stays (a new filter starts at the first)
      const page = new URLSearchParams(location.search).get('page');
      const u = new URL(f.url, location.href);
      if (page !== null) u.searchParams.set('page', page);
      history.replaceState(null, '', `${u.pathname}${u.search}`);
      // the links that keep the view (other pages, the next and previous releases) follow it
      for (const a of document.querySelectorAll<HTMLAnchorElement>('nav.pager a, nav.releases-nav a[rel]')) {
        const to = new URL(a.href);
        if (f.view === 'side') to.searchParams.set('view', 'side');
        else to.searchParams.delete('view');
        a.href = `${to.pathname}${to.search}${to.hash}`;
      }
      return;
    }
    let n = 0;
    for (const group of changes.querySelectorAll<HTMLElement>('.group')) {
      let any = false;
      for (const c of group.querySelectorAll<HTMLElement>('.change')) {
        const ok = (f.section === '' || (c.dataset.section ?? '').startsWith(f.section)) && (c.dataset.kinds ?? '').split(' ').some((k) => f.kinds.has(k));
        c.hidden = !ok;
        if (ok) n++;
        any ||= ok;
      }
      group.hidden = !any;
    }
    if (shown) shown.textContent = `${n} changes shown`;
    history.replaceState(null, '', f.url);
  };
  form.addEventListener('change', apply);
  form.addEventListener('submit', (e) => {
    if (changes.dataset.filtered !== undefined) return;
    e.preventDefault();
    apply();
  });
}

/** Rule pages: p, n and u follow the page's previous, next and up links (documented on the page). */
function ruleKeys(): void {
  const keys = new Map([
    ['p', 'prev'],
    ['n', 'next'],
    ['u', 'up'],
  ]);
  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return;
    if (e.target instanceof HTMLElement && e.target.closest('input, textarea, select, [contenteditable]')) return;
    const rel = keys.get(e.key);
    const a = rel ? document.querySelector<HTMLAnchorElement>(`nav.prevnext a[rel=${rel}]`) : null;
    if (a) location.assign(a.href);
  });
}

/** The citation form other tools use (#R70219b, #R702) opens the rule's own anchor (#702.19b). */
function shortAnchors(): void {
  const follow = (): void => {
    const id = numberOfShortAnchor(location.hash.slice(1));
    if (id === null) return;
    history.replaceState(null, '', `#${id}`);
    document.getElementById(id)?.scrollIntoView();
  };
  follow();
  window.addEventListener('hashchange', follow);
}

tooltips();
ruleKeys();
shortAnchors();
for (const f of document.querySelectorAll<HTMLFormElement>('form[data-live-search]')) liveSearch(f);
for (const f of document.querySelectorAll<HTMLFormElement>('form[data-diff-filters]')) diffFilters(f);
