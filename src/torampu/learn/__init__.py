"""Learned Daifugo knowledge: move features, a linear softmax policy and its training.

* :mod:`torampu.learn.daifugo_features` — features of a candidate move from the mover's side,
  and its binary keys (a policy's optional table of weights);
* :mod:`torampu.learn.daifugo_policy` — the policy (scores, sampling, the rollout, the prior);
* :mod:`torampu.learn.train` — records by self-play of a teacher bot and the fit
  (``torampu train daifugo``);
* :mod:`torampu.learn.selfplay` — a policy improved by playing against itself (policy
  gradient, ``torampu train daifugo-selfplay``, with ``--table`` its keys' weights too);
* :mod:`torampu.learn.daifugo_adapt` — a model of the other players fitted during a match to
  the games it has revealed (``ismcts:adapt=on``).

The shipped parameters (``data/daifugo_policy.json``) were made by the command recorded in
that file's ``command`` field (see :mod:`torampu.learn.daifugo_policy` for the figures).
"""
