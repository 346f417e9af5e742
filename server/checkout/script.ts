/**
 * The page's only script (inline, allowed by its nonce): it submits the form once, disabling
 * the button so a double tap cannot pay twice, then follows the payment until it is final.
 * Without JavaScript the form still posts and the status page reloads itself. Its words come
 * from the page (data attributes), in the customer's language.
 */
export const checkoutScript = `
(function () {
  var form = document.getElementById('pay-form');
  var path = location.pathname.replace(/\\/$/, '');
  // The merchant's return link, hidden until the payment is final.
  function showReturn(status) {
    var link = document.getElementById('return');
    if (link && (status === 'success' || status === 'failed' || status === 'expired')) link.hidden = false;
  }
  function follow(statusEl) {
    var timer = setInterval(function () {
      fetch(path + '/status', { headers: { accept: 'application/json' } })
        .then(function (r) { return r.json(); })
        .then(function (s) {
          statusEl.setAttribute('data-status', s.status);
          statusEl.textContent = s.text;
          showReturn(s.status);
          if (s.status !== 'pending' && s.status !== 'initiated') clearInterval(timer);
        })
        .catch(function () {});
    }, 1000);
  }
  var existing = document.getElementById('status');
  if (existing) { follow(existing); return; }
  if (!form) return;
  var button = document.getElementById('pay');
  var error = document.getElementById('msisdn-error');
  var input = document.getElementById('msisdn');
  // The label the page was rendered with ("Pay 2 500 XAF"), put back after an error.
  var label = button.textContent;
  // The page's words, in the customer's language.
  var sending = form.getAttribute('data-sending');
  var offline = form.getAttribute('data-offline');
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    if (button.disabled) return;
    button.disabled = true;
    button.textContent = sending;
    error.hidden = true;
    var method = form.querySelector('input[name=payment_method]:checked');
    fetch(path + '/pay', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ msisdn: input.value, payment_method: method ? method.value : '' })
    })
      .then(function (r) { return r.json().then(function (b) { return { ok: r.ok, body: b }; }); })
      .then(function (res) {
        if (!res.ok && res.body.error === 'invalid_msisdn') {
          error.textContent = res.body.text;
          error.hidden = false;
          input.setAttribute('aria-invalid', 'true');
          input.focus();
          button.disabled = false;
          button.textContent = label;
          return;
        }
        var card = form.parentNode;
        form.remove();
        var statusEl = document.createElement('p');
        statusEl.className = 'status';
        statusEl.id = 'status';
        statusEl.setAttribute('role', 'status');
        statusEl.setAttribute('aria-live', 'polite');
        statusEl.setAttribute('data-status', res.body.status);
        statusEl.textContent = res.body.text;
        var link = document.getElementById('return');
        card.insertBefore(statusEl, link && link.parentNode === card ? link : null);
        showReturn(res.body.status);
        if (res.body.status === 'pending') follow(statusEl);
      })
      .catch(function () {
        // No answer (the network dropped): say so; paying again is safe, the link charges once.
        error.textContent = offline;
        error.hidden = false;
        button.disabled = false;
        button.textContent = label;
      });
  });
})();
`;
