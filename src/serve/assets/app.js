// grail serve: the seat and designer pages. Plain script, no build step.
// The page's address holds its token; it fetches its own view and redraws
// whenever the server announces a change. Text from the server is only
// ever set as text (never as HTML).
'use strict';
(function () {
  var page = document.body.dataset.page;
  var base = location.pathname.replace(/\/+$/, '');
  var version = null;

  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); }
  function message(text, bad) {
    var m = $('message') || $('output');
    if (!m) return;
    m.textContent = text || '';
    m.classList.toggle('bad', !!bad);
  }

  // A zone's cards: `##` is a card back, `NAME xN` is N equal cards. Rows
  // and sets separate cards by two spaces (a name may hold one space, as
  // `bouclier (shield)`); piles by one, where `(...)` continues a name.
  function cards(text, into) {
    var below = /^\((\d+) below\)\s*/.exec(text);
    if (below) {
      into.appendChild(el('span', 'below', below[1] + ' below'));
      text = text.slice(below[0].length);
    }
    var items = [];
    if (/\S\s{2,}\S/.test(text)) {
      items = text.split(/\s{2,}/);
    } else {
      text.split(/\s+/).forEach(function (tok) {
        var last = items.length - 1;
        var joins = /^x\d+$/.test(tok) || (/^\(/.test(tok) && items[last] !== '##');
        if (last >= 0 && joins) items[last] += ' ' + tok;
        else items.push(tok);
      });
    }
    items.forEach(function (item) {
      item = item.trim();
      if (!item) return;
      var times = /^(.*\S)\s+(x\d+)$/.exec(item);
      var name = times ? times[1] : item;
      var card;
      if (name === '##') {
        card = el('span', 'card back', '');
        card.setAttribute('aria-label', 'hidden card');
        card.title = 'hidden card';
      } else {
        card = el('span', 'card face', name);
      }
      if (times) card.appendChild(el('span', 'times', ' ' + times[2]));
      into.appendChild(card);
    });
  }

  // The view text, as the engine renders it for this viewer, drawn as zones.
  function drawTable(text, into) {
    clear(into);
    var lines = text.split('\n');
    var zone = null, grid = null, facts = null;
    for (var i = 2; i < lines.length; i++) {
      var line = lines[i];
      if (!line.trim()) continue;
      var z = /^  (\S+)\s+\[\s*(\d+)\]\s?(.*)$/.exec(line);
      if (z) {
        zone = el('div', 'zone');
        zone.dataset.zone = z[1];
        var head = el('div', 'zone-head');
        head.appendChild(el('span', 'zone-name', z[1]));
        head.appendChild(el('span', 'count', z[2] + (z[2] === '1' ? ' card' : ' cards')));
        zone.appendChild(head);
        var row = el('div', 'cards');
        cards(z[3], row);
        zone.appendChild(row);
        into.appendChild(zone);
        grid = null;
        continue;
      }
      if (zone && /^ {21}\S/.test(line) && !grid) {
        cards(line.trim(), zone.lastChild);
        continue;
      }
      if (zone && /^    /.test(line)) {
        if (!grid) { grid = el('pre', 'grid'); zone.appendChild(grid); }
        grid.textContent += line.slice(4) + '\n';
        continue;
      }
      zone = null; grid = null;
      if (!facts) { facts = el('div', 'facts'); }
      facts.appendChild(el('div', 'fact', line.trim()));
    }
    if (facts) into.appendChild(facts);
  }

  function drawLog(lines) {
    var log = $('log');
    clear(log);
    lines.forEach(function (l) { log.appendChild(el('li', null, l)); });
  }

  function drawMoves(v) {
    var box = $('moves');
    clear(box);
    v.moves.forEach(function (m) {
      var wrap = el('div', 'move');
      var b = el('button', 'play', m.label);
      b.type = 'button';
      b.dataset.move = m.n;
      b.addEventListener('click', function () { play(m.n); });
      wrap.appendChild(b);
      if (page === 'designer') {
        var x = el('button', 'explain', '?');
        x.type = 'button';
        x.title = 'explain: which rule offers this move';
        x.addEventListener('click', function () { command('explain ' + m.n); });
        wrap.appendChild(x);
      }
      box.appendChild(wrap);
    });
  }

  function render(v) {
    version = v.version;
    document.body.dataset.version = v.version;
    var who = page === 'seat' ? 'P' + v.seat + ' - ' : 'designer - ';
    $('title').textContent = who + v.game + ' (table ' + v.table + ')';
    document.title = who + v.game;
    var status = v.status;
    if (page === 'seat') {
      if (v.bot) status += ' - your seat is played by a bot (' + v.bot + ')';
      else if (v.your_turn) status = 'Your turn: choose a move';
    }
    $('status').textContent = status;
    document.body.classList.toggle('turn', !!v.your_turn);
    drawMoves(v);
    drawTable(v.view, $('table'));
    drawLog(v.log);
    if (page === 'designer') drawDesigner(v);
  }

  function drawDesigner(v) {
    var seats = $('seats');
    clear(seats);
    v.seats.forEach(function (s) {
      var li = el('li');
      li.appendChild(el('span', 'seat', 'P' + s.seat + (s.bot ? ' (bot ' + s.bot + ')' : '') + ': '));
      var a = el('a', null, location.origin + s.link);
      a.href = s.link;
      a.target = '_blank';
      a.rel = 'noopener noreferrer';
      li.appendChild(a);
      seats.appendChild(li);
    });
    $('options').textContent = v.options;
    $('resume').hidden = !v.paused || !v.seats.some(function (s) { return s.bot; });
    $('save').href = base + '/save';
  }

  function load() {
    return fetch(base + '/view', { cache: 'no-store' }).then(function (r) {
      if (!r.ok) {
        return r.json().then(function (e) { message(e.error, true); });
      }
      return r.json().then(render);
    }).catch(function () { message('cannot reach the server', true); });
  }

  function post(path, body) {
    return fetch(base + path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body)
    }).then(function (r) {
      return r.json().then(function (j) { return { ok: r.ok, body: j }; });
    });
  }

  function play(n) {
    if (page === 'designer') { command('play ' + n); return; }
    post('/play', { move: n, version: version }).then(function (r) {
      if (r.ok) message('');
      else message(r.body.error, true);
      return load();
    }).catch(function () { message('cannot reach the server', true); });
  }

  function command(line) {
    return post('/cmd', { line: line }).then(function (r) {
      var out = r.ok ? r.body.output : 'error: ' + r.body.error;
      $('output').textContent = '> ' + line + '\n' + out;
      return load();
    }).catch(function () { message('cannot reach the server', true); });
  }

  function live(text, ok) {
    var l = $('live');
    l.textContent = text;
    l.classList.toggle('ok', !!ok);
  }

  function connect() {
    if (!window.EventSource) { setInterval(load, 2000); return; }
    var es = new EventSource(base + '/events');
    es.addEventListener('change', function (e) {
      if (String(version) !== e.data) load();
    });
    es.onopen = function () { live('live', true); load(); };
    es.onerror = function () { live('reconnecting'); };
  }

  if (page === 'designer') {
    $('undo').addEventListener('click', function () { command('undo'); });
    $('redo').addEventListener('click', function () { command('redo'); });
    $('resume').addEventListener('click', function () { command('resume'); });
    $('newtable').addEventListener('click', function () {
      post('/new', {}).then(function (r) {
        if (!r.ok) { $('output').textContent = 'error: ' + r.body.error; return; }
        $('output').textContent = 'new table ' + r.body.table + ': designer link ' +
          location.origin + r.body.designer;
        window.open(r.body.designer, '_blank', 'noopener');
      });
    });
    $('command').addEventListener('submit', function (e) {
      e.preventDefault();
      var line = $('line').value;
      if (line.trim()) command(line);
      $('line').value = '';
    });
  }
  load();
  connect();
})();
