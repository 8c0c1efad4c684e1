// The admin application's only script (served from 'self'; the CSP allows no inline script). Every page
// works without it: it only enhances them. Plain ES2020, no dependencies; tools/bundle.ts minifies it.
(function () {
  'use strict';
  var root = document.documentElement;
  root.classList.add('js');

  function debounce(fn, ms) {
    var timer = 0;
    return function () {
      clearTimeout(timer);
      timer = setTimeout(fn, ms);
    };
  }

  // The navigation folds behind a Menu button on narrow screens.
  function setupMenu() {
    var button = document.querySelector('.menu-toggle');
    var nav = document.getElementById('nav');
    if (!button || !nav) return;
    button.hidden = false;
    nav.classList.add('collapsed');
    button.addEventListener('click', function () {
      var open = nav.classList.toggle('collapsed') === false;
      button.setAttribute('aria-expanded', String(open));
    });
  }

  // "14:59 left" beside an expiry (impersonations, the session).
  function setupCountdowns() {
    var items = document.querySelectorAll('[data-countdown-until]');
    if (!items.length) return;
    function tick() {
      items.forEach(function (el) {
        var left = Math.floor((Date.parse(el.getAttribute('data-countdown-until')) - Date.now()) / 1000);
        if (!(left > 0)) {
          el.textContent = 'expired';
          return;
        }
        var h = Math.floor(left / 3600);
        var m = Math.floor((left % 3600) / 60);
        var s = left % 60;
        el.textContent = (h ? h + ' h ' : '') + m + ':' + (s < 10 ? '0' : '') + s + ' left';
      });
    }
    tick();
    setInterval(tick, 1000);
  }

  // Buttons that ask before a change that is hard to undo.
  function setupConfirms() {
    document.addEventListener('click', function (event) {
      var target = event.target instanceof Element ? event.target.closest('[data-confirm]') : null;
      if (target && !window.confirm(target.getAttribute('data-confirm'))) event.preventDefault();
    });
  }

  // Feature flag form: who the flag would reach, recomputed as the form changes (GET, nothing saved).
  function setupFlagPreview() {
    var form = document.querySelector('form[data-flag-preview]');
    var pane = document.querySelector('[data-preview-root]');
    if (!form || !pane) return;
    var url = form.getAttribute('data-flag-preview');
    var seq = 0;
    function set(name, text) {
      var el = pane.querySelector('[data-preview="' + name + '"]');
      if (el) el.textContent = text;
    }
    var update = debounce(function () {
      var params = new URLSearchParams();
      new FormData(form).forEach(function (value, key) {
        if (key !== '_csrf' && typeof value === 'string') params.append(key, value);
      });
      var mine = ++seq;
      fetch(url + '?' + params.toString(), { headers: { accept: 'application/json' }, credentials: 'same-origin' })
        .then(function (res) {
          return res.json().then(function (body) {
            return { ok: res.ok, body: body };
          });
        })
        .then(function (answer) {
          if (mine !== seq) return;
          pane.setAttribute('aria-busy', 'false');
          if (!answer.ok) {
            set('reached', '—');
            set('percent', 'fix the form to see who it reaches');
            return;
          }
          var p = answer.body;
          set('reached', p.reached.toLocaleString('en-US'));
          set('total', p.total.toLocaleString('en-US'));
          set('percent', (p.percent * 100).toFixed(1) + '%');
          var variants = pane.querySelector('[data-preview="variants"]');
          if (variants) {
            variants.textContent = p.variants
              ? 'Per variant: ' + Object.keys(p.variants).map(function (k) { return k + ' ' + p.variants[k].toLocaleString('en-US'); }).join(', ')
              : '';
          }
          var list = pane.querySelector('[data-preview="sample"]');
          if (list) {
            list.replaceChildren();
            p.sample.forEach(function (s) {
              var li = document.createElement('li');
              var a = document.createElement('a');
              a.href = '/dashboard/users/' + encodeURIComponent(s.id);
              a.textContent = s.email;
              li.appendChild(a);
              list.appendChild(li);
            });
          }
          var none = pane.querySelector('[data-preview="none"]');
          if (none) none.hidden = p.sample.length > 0;
        })
        .catch(function () {
          if (mine === seq) set('percent', 'preview unavailable');
        });
    }, 300);
    form.addEventListener('input', function () {
      pane.setAttribute('aria-busy', 'true');
      update();
    });
  }

  // Email template form: the render frame follows the edits (the form is posted into the frame, nothing saved).
  function setupTemplatePreview() {
    var form = document.querySelector('form[data-live-preview]');
    var button = form && form.querySelector('[data-preview-button]');
    if (!form || !button || typeof form.requestSubmit !== 'function') return;
    var render = debounce(function () {
      if (form.checkValidity()) form.requestSubmit(button);
    }, 600);
    form.addEventListener('input', render);
  }

  function start() {
    setupMenu();
    setupCountdowns();
    setupConfirms();
    setupFlagPreview();
    setupTemplatePreview();
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
