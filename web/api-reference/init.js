/*
 * The API reference page (/api/docs, served by the api-docs function beside
 * /api/openapi.json): Redoc draws the document in the app's language, the
 * one the visitor chose in the app (kept in localStorage as the app keeps
 * it), or the page's ?lang=sv|en; Swedish by default. An external script,
 * as the Content-Security-Policy allows no inline one. Search is off: Redoc
 * indexes in a Web Worker made from a blob: URL, which that policy refuses.
 * vite.config.ts `apiReference` puts the texts (labels.json) in place of
 * __TEXTS__ and copies it to dist/api-reference/.
 */
(function () {
  var TEXTS = __TEXTS__;
  function language() {
    var asked = new URLSearchParams(location.search).get('lang');
    if (asked === 'sv' || asked === 'en') return asked;
    try {
      var root = JSON.parse(localStorage.getItem('root') || 'null');
      if (root && root.utilities && root.utilities.language === 'en') return 'en';
    } catch (e) {
      /* an unreadable store: the default language */
    }
    return 'sv';
  }
  var lang = language();
  var t = TEXTS[lang];
  document.documentElement.lang = lang;
  document.title = t.title;
  var el = document.getElementById('api-reference');
  el.textContent = t.loading;
  window.Redoc.init(
    el.getAttribute('data-spec-url'),
    { labels: t.redoc, disableSearch: true, expandResponses: '200', theme: { sidebar: { width: '260px' } } },
    el,
  );
})();
