#!/usr/bin/env python3
"""Reference values for navbench's filters and spectral analysis, computed by the
implementations researchers already trust: scipy.signal, scipy.stats, numpy.fft,
filterpy and allantools. Writes Tests/NavSignalTests/Fixtures/signal_reference.h5.

Run from the repository root:  python3 scripts/make_signal_fixtures.py
(`make fixtures-signal` installs the pinned packages first.) Inputs are seeded synthetic
signals and real recordings from ../shared/real-data (BROAD trial 02, CC BY 4.0; the
CoreMotion data logger's heading log, MIT). The output is committed.
"""
import os
import sys

import allantools
import filterpy
import h5py
import numpy as np
import scipy
import scipy.signal as sig
import scipy.stats as st
from filterpy.common import Q_discrete_white_noise
from filterpy.kalman import KalmanFilter, predict, update

REAL = os.environ.get("NAVBENCH_REAL_DATA", os.path.join("..", "shared", "real-data"))
OUT = os.path.join("Tests", "NavSignalTests", "Fixtures", "signal_reference.h5")
rng = np.random.default_rng(20261122)


def put(g, name, data):
    data = np.asarray(data)
    kw = dict(compression="gzip", shuffle=True) if data.size > 1000 else {}
    g.create_dataset(name, data=data, **kw)


def seeded_signal(n=20000, fs=100.0):
    t = np.arange(n) / fs
    x = (np.sin(2 * np.pi * 1.9 * t) + 0.4 * np.sin(2 * np.pi * 12.0 * t + 0.3)
         + 0.2 * np.sin(2 * np.pi * 0.2 * t) + 0.1 * rng.standard_normal(n) + 3.0)
    return t, x


def main():
    f = h5py.File(OUT, "w")
    f.attrs["generator"] = "scripts/make_signal_fixtures.py"
    f.attrs["versions"] = (f"numpy {np.__version__}, scipy {scipy.__version__}, "
                           f"filterpy {filterpy.__version__}, allantools 2024.06")
    t, x = seeded_signal()
    put(f, "inputs/seeded", x)
    put(f, "inputs/seeded_t", t)
    with h5py.File(os.path.join(REAL, "broad", "02_undisturbed_slow_rotation_B.hdf5"), "r") as b:
        broad_rate = float(b.attrs["sampling_rate"])
        broad_acc = b["imu_acc"][:30000, 0]
        broad_gyr = b["imu_gyr"][:, 0]
    put(f, "inputs/broad_acc_x", broad_acc)
    put(f, "inputs/broad_gyr_x", broad_gyr)
    f["inputs"].attrs["broad_rate"] = broad_rate
    heading = np.loadtxt(os.path.join(REAL, "coremotion-data-logger", "Visualization", "heading.txt"), comments="#")
    put(f, "inputs/coremotion_heading", heading[:, 1])
    put(f, "inputs/coremotion_heading_t", (heading[:, 0] - heading[0, 0]) * 1e-9)

    # Butterworth designs: coefficients of ba and sos.
    designs = [("low", o, 5.0) for o in range(1, 9)] + [("high", o, 0.5) for o in range(1, 9)] \
        + [("band", o, (0.5, 3.0)) for o in range(1, 5)]
    for kind, order, wn in designs:
        name = f"butter/{kind}{order}"
        btype = {"low": "lowpass", "high": "highpass", "band": "bandpass"}[kind]
        b, a = sig.butter(order, wn, btype=btype, fs=100.0)
        sos = sig.butter(order, wn, btype=btype, fs=100.0, output="sos")
        put(f, name + "/b", b)
        put(f, name + "/a", a)
        put(f, name + "/sos", sos)
        f[name].attrs["order"] = order
        f[name].attrs["type"] = kind
        f[name].attrs["cutoff"] = float(np.atleast_1d(wn)[0])
        if kind == "band":
            f[name].attrs["cutoff_high"] = float(wn[1])

    # Filtering: ba and sos, causal (zero state and steady state) and zero-phase.
    cases = [("seeded_low4", x, 100.0, 4, "lowpass", 5.0),
             ("seeded_high3", x, 100.0, 3, "highpass", 0.5),
             ("seeded_band2", x, 100.0, 2, "bandpass", (0.5, 3.0)),
             ("seeded_low8", x, 100.0, 8, "lowpass", 5.0),
             ("broad_low4", broad_acc, broad_rate, 4, "lowpass", 10.0)]
    for name, data, fs, order, btype, wn in cases:
        g = f.create_group("filter/" + name)
        g.attrs["input"] = "seeded" if name.startswith("seeded") else "broad_acc_x"
        g.attrs["rate"] = fs
        g.attrs["order"] = order
        g.attrs["type"] = btype
        g.attrs["cutoff"] = float(np.atleast_1d(wn)[0])
        if btype == "bandpass":
            g.attrs["cutoff_high"] = float(wn[1])
        b, a = sig.butter(order, wn, btype=btype, fs=fs)
        sos = sig.butter(order, wn, btype=btype, fs=fs, output="sos")
        zi = sig.lfilter_zi(b, a)
        szi = sig.sosfilt_zi(sos)
        put(g, "lfilter_zi", zi)
        put(g, "sosfilt_zi", szi)
        put(g, "lfilter", sig.lfilter(b, a, data))
        put(g, "lfilter_steady", sig.lfilter(b, a, data, zi=zi * data[0])[0])
        put(g, "filtfilt", sig.filtfilt(b, a, data))
        put(g, "sosfilt", sig.sosfilt(sos, data))
        put(g, "sosfilt_steady", sig.sosfilt(sos, data, zi=szi * data[0])[0])
        put(g, "sosfiltfilt", sig.sosfiltfilt(sos, data))

    # Means.
    g = f.create_group("means")
    w = 25
    put(g, "causal25", np.array([x[max(0, k - w + 1):k + 1].mean() for k in range(len(x))]))
    put(g, "centred25", np.convolve(x, np.ones(w) / w, mode="same"))
    put(g, "expanding", np.cumsum(x) / np.arange(1, len(x) + 1))
    put(g, "broad_causal101", np.array([broad_acc[max(0, k - 100):k + 1].mean() for k in range(len(broad_acc))]))

    # Circular statistics (degrees).
    g = f.create_group("circular")
    h = heading[:, 1]
    g.attrs["heading_mean"] = st.circmean(h, high=360, low=0)
    g.attrs["heading_std"] = st.circstd(h, high=360, low=0)
    g.attrs["heading_arith_mean"] = float(np.mean(h))
    wrap = np.mod(rng.normal(0, 8, 500) + 360, 360)  # scattered around north
    put(g, "north_scatter", wrap)
    g.attrs["north_mean"] = st.circmean(wrap, high=360, low=0)
    g.attrs["north_std"] = st.circstd(wrap, high=360, low=0)
    g.attrs["north_arith_mean"] = float(np.mean(wrap))
    put(g, "north_expanding", np.array([st.circmean(wrap[:k + 1], high=360, low=0) for k in range(len(wrap))]))

    # Exponential low-pass on uniform sampling = lfilter([α], [1, α − 1]) from steady state.
    g = f.create_group("ema")
    tau, fs = 0.5, 100.0
    alpha = -np.expm1(-1 / fs / tau)
    g.attrs["tau"] = tau
    put(g, "seeded", sig.lfilter([alpha], [1, alpha - 1], x, zi=[(1 - alpha) * x[0]])[0])

    # Scalar random-walk Kalman (filterpy class), RSSI-like input.
    g = f.create_group("kalman")
    rssi = np.round(-70 + 6 * rng.standard_normal(3000) + 5 * np.sin(np.arange(3000) / 200))
    put(g, "rssi", rssi)
    q, r = 0.01, 4.0
    g.attrs["q"], g.attrs["r"] = q, r
    kf = KalmanFilter(dim_x=1, dim_z=1)
    kf.F = np.array([[1.0]]); kf.H = np.array([[1.0]]); kf.Q = np.array([[q]]); kf.R = np.array([[r]])
    kf.x = np.array([[rssi[0]]]); kf.P = np.array([[r]])
    out, var = [rssi[0]], [r]
    for z in rssi[1:]:
        kf.predict(); kf.update(z)
        out.append(kf.x[0, 0]); var.append(kf.P[0, 0])
    put(g, "random_walk", out)
    put(g, "random_walk_var", var)

    # Constant-velocity Kalman (filterpy class) on irregular timestamps + RTS smoother.
    n = 2000
    tt = np.cumsum(rng.uniform(0.05, 0.15, n))
    pos = np.cumsum(1.2 * np.diff(np.concatenate([[0], tt]))) + 0.05 * rng.standard_normal(n)
    put(g, "cv_t", tt)
    put(g, "cv_z", pos)
    qa, rp = 0.5, 0.05 ** 2
    g.attrs["cv_q"], g.attrs["cv_r"] = qa, rp
    kf = KalmanFilter(dim_x=2, dim_z=1)
    kf.H = np.array([[1.0, 0.0]]); kf.R = np.array([[rp]])
    kf.x = np.array([[pos[0]], [0.0]]); kf.P = np.diag([rp, 1.0])
    means, covs = [], []
    prev = tt[0] - 0.1
    for tk, z in zip(tt, pos):
        dt = tk - prev; prev = tk
        kf.F = np.array([[1.0, dt], [0.0, 1.0]]); kf.Q = Q_discrete_white_noise(2, dt=dt, var=qa)
        kf.predict(); kf.update(z)
        means.append(kf.x[:, 0].copy()); covs.append(kf.P.copy())
    put(g, "cv_mean", np.array(means))
    put(g, "cv_cov", np.array(covs).reshape(n, 4))
    # Uniform interval: filter then RTS-smooth with filterpy's own smoother.
    dt = 0.1
    zs = 1.2 * np.arange(n) * dt + 0.05 * rng.standard_normal(n)
    put(g, "rts_z", zs)
    kf = KalmanFilter(dim_x=2, dim_z=1)
    kf.F = np.array([[1.0, dt], [0.0, 1.0]]); kf.Q = Q_discrete_white_noise(2, dt=dt, var=qa)
    kf.H = np.array([[1.0, 0.0]]); kf.R = np.array([[rp]])
    kf.x = np.array([[zs[0]], [0.0]]); kf.P = np.diag([rp, 1.0])
    mu, cov, _, _ = kf.batch_filter(zs)
    xs, ps, _, _ = kf.rts_smoother(mu, cov)
    put(g, "rts_filtered", mu[:, :, 0])
    put(g, "rts_smoothed", xs[:, :, 0])
    put(g, "rts_smoothed_cov", ps.reshape(n, 4))

    # Heading filter: filterpy's functional predict/update with the innovation wrapped
    # by passing z' = x + wrap(z − x); state wrapped into [0, 360).
    def wrap180(d):
        return (d + 180.0) % 360.0 - 180.0 if ((d + 180.0) % 360.0) != 0 else 180.0

    def heading_filter(zs, q, r):
        xk, pk = np.array([zs[0] % 360.0]), np.array([[r]])
        out = [xk[0]]
        for z in zs[1:]:
            xk, pk = predict(xk, pk, F=np.eye(1), Q=q)
            zz = float(np.ravel(xk)[0]) + wrap180(z - float(np.ravel(xk)[0]))
            xk, pk = update(xk, pk, zz, r, H=np.eye(1))
            xk = np.array([float(np.ravel(xk)[0]) % 360.0])
            out.append(xk[0])
        return np.array(out)

    hz = np.mod(np.cumsum(rng.normal(0.05, 1.0, 3000)) + 350 + 5 * rng.standard_normal(3000), 360)
    put(g, "heading_z", hz)
    g.attrs["heading_q"], g.attrs["heading_r"] = 0.5, 25.0
    put(g, "heading", heading_filter(hz, 0.5, 25.0))
    put(g, "heading_coremotion", heading_filter(heading[:, 1], 0.5, 25.0))

    # Gyro + compass fusion with gating, written with filterpy's predict/update (u = Δψ).
    fs_g, fs_c = 100.0, 10.0
    tg = np.arange(1, 3001) / fs_g
    yaw_rate = 0.3 * np.sin(tg / 3.0) + 0.01 * rng.standard_normal(len(tg))       # rad/s, CCW
    true_heading = np.mod(10 - np.cumsum(yaw_rate) / fs_g * 180 / np.pi, 360)
    tc = np.arange(0, 30, 1 / fs_c)
    comp = np.interp(tc, np.concatenate([[0], tg]), np.unwrap(np.concatenate([[10], true_heading]), period=360))
    comp = np.mod(comp + 3 * rng.standard_normal(len(tc)), 360)
    comp[100:115] = np.mod(comp[100:115] + 60, 360)    # a magnetic disturbance
    comp[200:205] = np.mod(comp[200:205] + 180, 360)   # a flip at critical pitch
    put(g, "fusion_gyro_t", tg)
    put(g, "fusion_yaw_rate", yaw_rate)
    put(g, "fusion_compass_t", tc)
    put(g, "fusion_compass", comp)
    qf, rf, gate = 0.2, 9.0, 3.0
    g.attrs["fusion_q"], g.attrs["fusion_r"], g.attrs["fusion_gate"] = qf, rf, gate
    xk, pk = np.array([comp[0] % 360.0]), np.array([[rf]])
    fused, accepted = [xk[0]], [1]
    gi, last = 0, tc[0]
    while gi < len(tg) and tg[gi] <= tc[0]:
        gi += 1
    for k in range(1, len(tc)):
        while gi < len(tg) and tg[gi] <= tc[k]:
            dt = tg[gi] - last
            xk, pk = predict(xk, pk, F=np.eye(1), Q=qf * dt, u=-yaw_rate[gi] * dt * 180 / np.pi, B=np.eye(1))
            last = tg[gi]; gi += 1
        xk = np.array([float(np.ravel(xk)[0]) % 360.0])
        nu = wrap180(comp[k] - xk[0])
        ok = bool(abs(nu) <= gate * np.sqrt(float(np.ravel(pk)[0]) + rf))
        if ok:
            xk, pk = update(xk, pk, xk[0] + nu, rf, H=np.eye(1))
            xk = np.array([float(np.ravel(xk)[0]) % 360.0])
        fused.append(xk[0]); accepted.append(int(ok))
    put(g, "fusion_heading", fused)
    put(g, "fusion_accepted", accepted)

    # Spectral: rfft, Welch, Allan deviation.
    s = f.create_group("spectral")
    for n in (1000, 1024, 4097):
        v = rng.standard_normal(n)
        put(s, f"rfft{n}_in", v)
        X = np.fft.rfft(v)
        put(s, f"rfft{n}_re", X.real)
        put(s, f"rfft{n}_im", X.imag)
    for name, data, fs, nper, scaling in (("seeded_256_density", x, 100.0, 256, "density"),
                                          ("seeded_1024_spectrum", x, 100.0, 1024, "spectrum"),
                                          ("seeded_255_density", x, 100.0, 255, "density"),
                                          ("broad_512_density", broad_acc, broad_rate, 512, "density")):
        fr, p = sig.welch(data, fs=fs, nperseg=nper, scaling=scaling)
        gg = s.create_group("welch_" + name)
        gg.attrs["input"] = "seeded" if name.startswith("seeded") else "broad_acc_x"
        gg.attrs["rate"], gg.attrs["nperseg"], gg.attrs["scaling"] = fs, nper, scaling
        put(gg, "f", fr)
        put(gg, "p", p)
    for name, data, fs in (("broad_gyr_x", broad_gyr, broad_rate),
                           ("seeded_gyro", 0.01 * rng.standard_normal(100000) + np.cumsum(1e-5 * rng.standard_normal(100000)), 100.0)):
        if name == "seeded_gyro":
            put(f, "inputs/seeded_gyro", data)
        taus, ad, ade, ns = allantools.oadev(data, rate=fs, data_type="freq", taus="octave")
        gg = s.create_group("oadev_" + name)
        gg.attrs["rate"] = fs
        put(gg, "taus", taus)
        put(gg, "adev", ad)
        put(gg, "n", ns)
    f.close()
    print("wrote", OUT)


if __name__ == "__main__":
    sys.exit(main())
