/* global document, navigator, window */
// Progressive enhancements of the dashboard; every page works without them.
(function () {
  // "Copy" buttons next to a secret shown once (hidden without JavaScript: the field can be selected).
  document.querySelectorAll('button[data-copy]').forEach(function (button) {
    var field = document.getElementById(button.getAttribute('data-copy'));
    if (!field || !navigator.clipboard) return;
    button.hidden = false;
    button.addEventListener('click', function () {
      navigator.clipboard.writeText(field.value).then(function () {
        button.textContent = 'Copied';
      }, function () {
        field.select();
      });
    });
  });
  // Forms that destroy something ask once more.
  document.addEventListener('submit', function (event) {
    var form = event.target;
    var question = form && form.getAttribute && form.getAttribute('data-confirm');
    if (question && !window.confirm(question)) event.preventDefault();
  }, true);
  var summary = document.getElementById('error-summary');
  if (summary) summary.focus();
})();
