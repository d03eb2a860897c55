package io.lanes.examples.cli;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Ctrl-C (SIGINT) and SIGTERM while a command runs a pipeline: the first signal asks for a graceful stop, a second one
 * for an abort. The command's own thread then stops the pipeline, prints its summary and its one JSON line, and returns
 * its exit status, all before the JVM begins to shut down.
 *
 * <p>Why not a shutdown hook: by the time a hook runs, the JVM is exiting. The other hooks run at the same time, H2's
 * among them (it closed the database under the workers), the main thread may be cut off in the middle of its last line,
 * and the exit status is the signal's (130) whatever the run achieved. Handling the signal instead of letting it start a
 * shutdown avoids all three.
 *
 * <p>The handlers are installed through {@code sun.misc.Signal} (module jdk.unsupported, present in every OpenJDK
 * build), looked up by reflection so that the build carries no warning about it. Where it is missing, or the JVM runs
 * with {@code -Xrs}, or the signal was ignored when the JVM started (as under {@code nohup}), nothing is installed for
 * that signal and the JVM's default stays: see {@link #installed()}. {@link #close()} restores the previous handlers.
 *
 * <p>Thread-safe: handlers run on the JVM's signal thread; {@link #received()} may be read from any thread.
 */
final class StopSignals implements AutoCloseable {
    /** The signals handled, with their numbers for the exit status (128 + number) on Linux and macOS. */
    private static final String[] NAMES = {"INT", "TERM"};
    private static final int[] NUMBERS = {2, 15};

    private final AtomicInteger received = new AtomicInteger();
    private volatile int lastNumber;
    private final List<Object[]> previous = new ArrayList<>(); // {Signal, previous handler}
    private final Method handle;

    private StopSignals(Method handle) {
        this.handle = handle;
    }

    /**
     * Installs the handlers.
     *
     * @param onFirst run on the signal thread at the first signal (it must return quickly: set a flag, say)
     * @param onSecond run at every later signal
     */
    static StopSignals install(Runnable onFirst, Runnable onSecond) {
        Method handle = null;
        Object handler = null;
        Constructor<?> signal = null;
        try {
            Class<?> signalClass = Class.forName("sun.misc.Signal");
            Class<?> handlerClass = Class.forName("sun.misc.SignalHandler");
            signal = signalClass.getConstructor(String.class);
            handle = signalClass.getMethod("handle", signalClass, handlerClass);
            Method number = signalClass.getMethod("getNumber");
            StopSignals[] self = new StopSignals[1];
            handler = Proxy.newProxyInstance(StopSignals.class.getClassLoader(), new Class<?>[] {handlerClass},
                    (proxy, method, args) -> switch (method.getName()) {
                        case "handle" -> {
                            self[0].lastNumber = (Integer) number.invoke(args[0]);
                            (self[0].received.incrementAndGet() == 1 ? onFirst : onSecond).run();
                            yield null;
                        }
                        case "hashCode" -> System.identityHashCode(proxy);
                        case "equals" -> proxy == args[0];
                        default -> "StopSignals.handler";
                    });
            StopSignals s = new StopSignals(handle);
            self[0] = s;
            for (String name : NAMES) {
                try {
                    Object sig = signal.newInstance(name);
                    Object old = handle.invoke(null, sig, handler);
                    s.previous.add(new Object[] {sig, old});
                } catch (ReflectiveOperationException | RuntimeException refused) {
                    // -Xrs, or a signal this platform does not have: the JVM's default stays for it
                }
            }
            return s;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError unavailable) {
            return new StopSignals(null);
        }
    }

    /** How many stop signals arrived since {@link #install}. */
    int received() {
        return received.get();
    }

    /**
     * The exit status a command that was stopped by the last signal before its work was done returns, as shells report
     * a process a signal ended: 128 + the signal's number (130 for Ctrl-C, 143 for SIGTERM).
     */
    int interruptedExitStatus() {
        int n = lastNumber;
        return 128 + (n > 0 ? n : NUMBERS[0]);
    }

    /** Whether a handler replaced the JVM's default for at least one signal. */
    boolean installed() {
        return !previous.isEmpty();
    }

    /** Puts the previous handlers back. */
    @Override
    public void close() {
        for (Object[] p : previous) {
            try {
                handle.invoke(null, p[0], p[1]);
            } catch (ReflectiveOperationException | RuntimeException ignored) {
                // the JVM is exiting, or the platform refused it: nothing left to restore
            }
        }
        previous.clear();
    }
}
