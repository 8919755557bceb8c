import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
/******/ var __webpack_modules__ = ({

/***/ 770:
/***/ ((module, __unused_webpack_exports, __nccwpck_require__) => {

module.exports = __nccwpck_require__(218);


/***/ }),

/***/ 218:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var net = __nccwpck_require__(9278);
var tls = __nccwpck_require__(4756);
var http = __nccwpck_require__(8611);
var https = __nccwpck_require__(5692);
var events = __nccwpck_require__(4434);
var assert = __nccwpck_require__(2613);
var util = __nccwpck_require__(9023);


exports.httpOverHttp = httpOverHttp;
exports.httpsOverHttp = httpsOverHttp;
exports.httpOverHttps = httpOverHttps;
exports.httpsOverHttps = httpsOverHttps;


function httpOverHttp(options) {
  var agent = new TunnelingAgent(options);
  agent.request = http.request;
  return agent;
}

function httpsOverHttp(options) {
  var agent = new TunnelingAgent(options);
  agent.request = http.request;
  agent.createSocket = createSecureSocket;
  agent.defaultPort = 443;
  return agent;
}

function httpOverHttps(options) {
  var agent = new TunnelingAgent(options);
  agent.request = https.request;
  return agent;
}

function httpsOverHttps(options) {
  var agent = new TunnelingAgent(options);
  agent.request = https.request;
  agent.createSocket = createSecureSocket;
  agent.defaultPort = 443;
  return agent;
}


function TunnelingAgent(options) {
  var self = this;
  self.options = options || {};
  self.proxyOptions = self.options.proxy || {};
  self.maxSockets = self.options.maxSockets || http.Agent.defaultMaxSockets;
  self.requests = [];
  self.sockets = [];

  self.on('free', function onFree(socket, host, port, localAddress) {
    var options = toOptions(host, port, localAddress);
    for (var i = 0, len = self.requests.length; i < len; ++i) {
      var pending = self.requests[i];
      if (pending.host === options.host && pending.port === options.port) {
        // Detect the request to connect same origin server,
        // reuse the connection.
        self.requests.splice(i, 1);
        pending.request.onSocket(socket);
        return;
      }
    }
    socket.destroy();
    self.removeSocket(socket);
  });
}
util.inherits(TunnelingAgent, events.EventEmitter);

TunnelingAgent.prototype.addRequest = function addRequest(req, host, port, localAddress) {
  var self = this;
  var options = mergeOptions({request: req}, self.options, toOptions(host, port, localAddress));

  if (self.sockets.length >= this.maxSockets) {
    // We are over limit so we'll add it to the queue.
    self.requests.push(options);
    return;
  }

  // If we are under maxSockets create a new one.
  self.createSocket(options, function(socket) {
    socket.on('free', onFree);
    socket.on('close', onCloseOrRemove);
    socket.on('agentRemove', onCloseOrRemove);
    req.onSocket(socket);

    function onFree() {
      self.emit('free', socket, options);
    }

    function onCloseOrRemove(err) {
      self.removeSocket(socket);
      socket.removeListener('free', onFree);
      socket.removeListener('close', onCloseOrRemove);
      socket.removeListener('agentRemove', onCloseOrRemove);
    }
  });
};

TunnelingAgent.prototype.createSocket = function createSocket(options, cb) {
  var self = this;
  var placeholder = {};
  self.sockets.push(placeholder);

  var connectOptions = mergeOptions({}, self.proxyOptions, {
    method: 'CONNECT',
    path: options.host + ':' + options.port,
    agent: false,
    headers: {
      host: options.host + ':' + options.port
    }
  });
  if (options.localAddress) {
    connectOptions.localAddress = options.localAddress;
  }
  if (connectOptions.proxyAuth) {
    connectOptions.headers = connectOptions.headers || {};
    connectOptions.headers['Proxy-Authorization'] = 'Basic ' +
        new Buffer(connectOptions.proxyAuth).toString('base64');
  }

  debug('making CONNECT request');
  var connectReq = self.request(connectOptions);
  connectReq.useChunkedEncodingByDefault = false; // for v0.6
  connectReq.once('response', onResponse); // for v0.6
  connectReq.once('upgrade', onUpgrade);   // for v0.6
  connectReq.once('connect', onConnect);   // for v0.7 or later
  connectReq.once('error', onError);
  connectReq.end();

  function onResponse(res) {
    // Very hacky. This is necessary to avoid http-parser leaks.
    res.upgrade = true;
  }

  function onUpgrade(res, socket, head) {
    // Hacky.
    process.nextTick(function() {
      onConnect(res, socket, head);
    });
  }

  function onConnect(res, socket, head) {
    connectReq.removeAllListeners();
    socket.removeAllListeners();

    if (res.statusCode !== 200) {
      debug('tunneling socket could not be established, statusCode=%d',
        res.statusCode);
      socket.destroy();
      var error = new Error('tunneling socket could not be established, ' +
        'statusCode=' + res.statusCode);
      error.code = 'ECONNRESET';
      options.request.emit('error', error);
      self.removeSocket(placeholder);
      return;
    }
    if (head.length > 0) {
      debug('got illegal response body from proxy');
      socket.destroy();
      var error = new Error('got illegal response body from proxy');
      error.code = 'ECONNRESET';
      options.request.emit('error', error);
      self.removeSocket(placeholder);
      return;
    }
    debug('tunneling connection has established');
    self.sockets[self.sockets.indexOf(placeholder)] = socket;
    return cb(socket);
  }

  function onError(cause) {
    connectReq.removeAllListeners();

    debug('tunneling socket could not be established, cause=%s\n',
          cause.message, cause.stack);
    var error = new Error('tunneling socket could not be established, ' +
                          'cause=' + cause.message);
    error.code = 'ECONNRESET';
    options.request.emit('error', error);
    self.removeSocket(placeholder);
  }
};

TunnelingAgent.prototype.removeSocket = function removeSocket(socket) {
  var pos = this.sockets.indexOf(socket)
  if (pos === -1) {
    return;
  }
  this.sockets.splice(pos, 1);

  var pending = this.requests.shift();
  if (pending) {
    // If we have pending requests and a socket gets closed a new one
    // needs to be created to take over in the pool for the one that closed.
    this.createSocket(pending, function(socket) {
      pending.request.onSocket(socket);
    });
  }
};

function createSecureSocket(options, cb) {
  var self = this;
  TunnelingAgent.prototype.createSocket.call(self, options, function(socket) {
    var hostHeader = options.request.getHeader('host');
    var tlsOptions = mergeOptions({}, self.options, {
      socket: socket,
      servername: hostHeader ? hostHeader.replace(/:.*$/, '') : options.host
    });

    // 0 is dummy port for v0.6
    var secureSocket = tls.connect(0, tlsOptions);
    self.sockets[self.sockets.indexOf(socket)] = secureSocket;
    cb(secureSocket);
  });
}


function toOptions(host, port, localAddress) {
  if (typeof host === 'string') { // since v0.10
    return {
      host: host,
      port: port,
      localAddress: localAddress
    };
  }
  return host; // for v0.11 or later
}

function mergeOptions(target) {
  for (var i = 1, len = arguments.length; i < len; ++i) {
    var overrides = arguments[i];
    if (typeof overrides === 'object') {
      var keys = Object.keys(overrides);
      for (var j = 0, keyLen = keys.length; j < keyLen; ++j) {
        var k = keys[j];
        if (overrides[k] !== undefined) {
          target[k] = overrides[k];
        }
      }
    }
  }
  return target;
}


var debug;
if (process.env.NODE_DEBUG && /\btunnel\b/.test(process.env.NODE_DEBUG)) {
  debug = function() {
    var args = Array.prototype.slice.call(arguments);
    if (typeof args[0] === 'string') {
      args[0] = 'TUNNEL: ' + args[0];
    } else {
      args.unshift('TUNNEL:');
    }
    console.error.apply(console, args);
  }
} else {
  debug = function() {};
}
exports.debug = debug; // for test


/***/ }),

/***/ 2613:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("assert");

/***/ }),

/***/ 181:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("buffer");

/***/ }),

/***/ 4434:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("events");

/***/ }),

/***/ 9896:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("fs");

/***/ }),

/***/ 8611:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("http");

/***/ }),

/***/ 5692:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("https");

/***/ }),

/***/ 9278:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("net");

/***/ }),

/***/ 4589:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:assert");

/***/ }),

/***/ 6698:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:async_hooks");

/***/ }),

/***/ 4573:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:buffer");

/***/ }),

/***/ 7540:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:console");

/***/ }),

/***/ 7598:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:crypto");

/***/ }),

/***/ 3053:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:diagnostics_channel");

/***/ }),

/***/ 610:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:dns");

/***/ }),

/***/ 8474:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:events");

/***/ }),

/***/ 7067:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:http");

/***/ }),

/***/ 2467:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:http2");

/***/ }),

/***/ 7030:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:net");

/***/ }),

/***/ 643:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:perf_hooks");

/***/ }),

/***/ 1792:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:querystring");

/***/ }),

/***/ 7075:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:stream");

/***/ }),

/***/ 1692:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:tls");

/***/ }),

/***/ 3136:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:url");

/***/ }),

/***/ 7975:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:util");

/***/ }),

/***/ 3429:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:util/types");

/***/ }),

/***/ 5919:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:worker_threads");

/***/ }),

/***/ 8522:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:zlib");

/***/ }),

/***/ 857:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("os");

/***/ }),

/***/ 932:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("process");

/***/ }),

/***/ 3193:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("string_decoder");

/***/ }),

/***/ 4756:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("tls");

/***/ }),

/***/ 9023:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("util");

/***/ }),

/***/ 6544:
/***/ ((module, __unused_webpack_exports, __nccwpck_require__) => {

/**
 * Packages kept out of the bundle's main file. Each is an `import()`, so the
 * bundler puts it in a chunk of its own (dist/NNN.index.js) that is read and
 * evaluated only by a step that loads it:
 *
 * - `undici`: @actions/http-client imports it only for ProxyAgent (and
 *   @actions/core imports http-client for OIDC); the action's own requests go
 *   through node:http. Only Octokit (pull-request comments) uses it.
 * - `yaml`: only a spec input (check, incident, status-page) or a checks file
 *   needs it.
 *
 * A caller awaits `load(name)` where it knows the package is needed; the
 * stand-in (`lazy(name)`, what `import ... from 'undici'` gets in the bundle)
 * then reads the real package. Used before it is loaded, the stand-in throws
 * naming the package: a bug in the caller, caught by the tests.
 */


const importers = {
  // By path: the bundle maps the name `undici` to ./undici.cjs (tsconfig.json `paths`).
  undici: () => __nccwpck_require__.e(/* import() */ 752).then(__nccwpck_require__.t.bind(__nccwpck_require__, 6752, 19)),
  yaml: () => __nccwpck_require__.e(/* import() */ 815).then(__nccwpck_require__.t.bind(__nccwpck_require__, 8815, 19))
}

const loaded = new Map()

/** Load a package once; later calls resolve at once. */
async function load(name) {
  if (!loaded.has(name)) {
    const namespace = await importers[name]()
    // Both packages are CommonJS: their exports are the namespace's default.
    loaded.set(name, namespace.default ?? namespace)
  }
}

function real(name) {
  const module = loaded.get(name)
  if (module === undefined) throw new Error(`${name} is used before it is loaded: await load('${name}') first`)
  return module
}

/**
 * A stand-in for a package: every property read goes to the loaded package.
 * What importers ask at import time has an answer before the load: the
 * stand-in is not an ES module (`__esModule`: the bundler's default import is
 * the stand-in itself), and listing its keys finds none (jest lists a
 * CommonJS module's exports).
 */
function lazy(name) {
  return new Proxy(
    {},
    {
      get: (_target, key) => (key === '__esModule' ? undefined : real(name)[key]),
      has: (_target, key) => key in real(name),
      ownKeys: () => (loaded.has(name) ? Reflect.ownKeys(real(name)) : []),
      getOwnPropertyDescriptor: (_target, key) => {
        if (!loaded.has(name)) return undefined
        const descriptor = Reflect.getOwnPropertyDescriptor(real(name), key)
        return descriptor && { ...descriptor, configurable: true }
      }
    }
  )
}

module.exports = { load, lazy }


/***/ }),

/***/ 5669:
/***/ ((module, __unused_webpack_exports, __nccwpck_require__) => {

/**
 * What `undici` is in the bundle (tsconfig.json `paths`): a stand-in that reads
 * the real package once `load('undici')` (./modules.cjs) has loaded it. Without
 * this every start would evaluate undici and instantiate its WebAssembly HTTP
 * parser, although the action's own requests never use it.
 */

module.exports = (__nccwpck_require__(6544).lazy)('undici')


/***/ }),

/***/ 4488:
/***/ ((module, __unused_webpack_exports, __nccwpck_require__) => {

/**
 * `yaml`, read once `load('yaml')` (./modules.cjs) has loaded it: a step
 * without a spec input or a checks file never reads or evaluates the package.
 */

module.exports = (__nccwpck_require__(6544).lazy)('yaml')


/***/ })

/******/ });
/************************************************************************/
/******/ // The module cache
/******/ var __webpack_module_cache__ = {};
/******/ 
/******/ // The require function
/******/ function __nccwpck_require__(moduleId) {
/******/ 	// Check if module is in cache
/******/ 	var cachedModule = __webpack_module_cache__[moduleId];
/******/ 	if (cachedModule !== undefined) {
/******/ 		return cachedModule.exports;
/******/ 	}
/******/ 	// Create a new module (and put it into the cache)
/******/ 	var module = __webpack_module_cache__[moduleId] = {
/******/ 		// no module.id needed
/******/ 		// no module.loaded needed
/******/ 		exports: {}
/******/ 	};
/******/ 
/******/ 	// Execute the module function
/******/ 	var threw = true;
/******/ 	try {
/******/ 		__webpack_modules__[moduleId].call(module.exports, module, module.exports, __nccwpck_require__);
/******/ 		threw = false;
/******/ 	} finally {
/******/ 		if(threw) delete __webpack_module_cache__[moduleId];
/******/ 	}
/******/ 
/******/ 	// Return the exports of the module
/******/ 	return module.exports;
/******/ }
/******/ 
/******/ // expose the modules object (__webpack_modules__)
/******/ __nccwpck_require__.m = __webpack_modules__;
/******/ 
/************************************************************************/
/******/ /* webpack/runtime/asset-relocator-loader */
/******/ if (typeof __nccwpck_require__ !== 'undefined') __nccwpck_require__.ab = decodeURIComponent(new URL('.', import.meta.url).pathname).slice(import.meta.url.match(/^file:\/\/\/\w:/) ? 1 : 0, -1) + "/";
/******/ 
/******/ /* webpack/runtime/compat get default export */
/******/ (() => {
/******/ 	// getDefaultExport function for compatibility with non-harmony modules
/******/ 	__nccwpck_require__.n = (module) => {
/******/ 		var getter = module && module.__esModule ?
/******/ 			() => (module['default']) :
/******/ 			() => (module);
/******/ 		__nccwpck_require__.d(getter, { a: getter });
/******/ 		return getter;
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/create fake namespace object */
/******/ (() => {
/******/ 	var getProto = Object.getPrototypeOf ? (obj) => (Object.getPrototypeOf(obj)) : (obj) => (obj.__proto__);
/******/ 	var leafPrototypes;
/******/ 	// create a fake namespace object
/******/ 	// mode & 1: value is a module id, require it
/******/ 	// mode & 2: merge all properties of value into the ns
/******/ 	// mode & 4: return value when already ns object
/******/ 	// mode & 16: return value when it's Promise-like
/******/ 	// mode & 8|1: behave like require
/******/ 	__nccwpck_require__.t = function(value, mode) {
/******/ 		if(mode & 1) value = this(value);
/******/ 		if(mode & 8) return value;
/******/ 		if(typeof value === 'object' && value) {
/******/ 			if((mode & 4) && value.__esModule) return value;
/******/ 			if((mode & 16) && typeof value.then === 'function') return value;
/******/ 		}
/******/ 		var ns = Object.create(null);
/******/ 		__nccwpck_require__.r(ns);
/******/ 		var def = {};
/******/ 		leafPrototypes = leafPrototypes || [null, getProto({}), getProto([]), getProto(getProto)];
/******/ 		for(var current = mode & 2 && value; typeof current == 'object' && !~leafPrototypes.indexOf(current); current = getProto(current)) {
/******/ 			Object.getOwnPropertyNames(current).forEach((key) => (def[key] = () => (value[key])));
/******/ 		}
/******/ 		def['default'] = () => (value);
/******/ 		__nccwpck_require__.d(ns, def);
/******/ 		return ns;
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/define property getters */
/******/ (() => {
/******/ 	// define getter functions for harmony exports
/******/ 	__nccwpck_require__.d = (exports, definition) => {
/******/ 		for(var key in definition) {
/******/ 			if(__nccwpck_require__.o(definition, key) && !__nccwpck_require__.o(exports, key)) {
/******/ 				Object.defineProperty(exports, key, { enumerable: true, get: definition[key] });
/******/ 			}
/******/ 		}
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/ensure chunk */
/******/ (() => {
/******/ 	__nccwpck_require__.f = {};
/******/ 	// This file contains only the entry chunk.
/******/ 	// The chunk loading function for additional chunks
/******/ 	__nccwpck_require__.e = (chunkId) => {
/******/ 		return Promise.all(Object.keys(__nccwpck_require__.f).reduce((promises, key) => {
/******/ 			__nccwpck_require__.f[key](chunkId, promises);
/******/ 			return promises;
/******/ 		}, []));
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/get javascript chunk filename */
/******/ (() => {
/******/ 	// This function allow to reference async chunks
/******/ 	__nccwpck_require__.u = (chunkId) => {
/******/ 		// return url for filenames based on template
/******/ 		return "" + chunkId + ".index.js";
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/hasOwnProperty shorthand */
/******/ (() => {
/******/ 	__nccwpck_require__.o = (obj, prop) => (Object.prototype.hasOwnProperty.call(obj, prop))
/******/ })();
/******/ 
/******/ /* webpack/runtime/make namespace object */
/******/ (() => {
/******/ 	// define __esModule on exports
/******/ 	__nccwpck_require__.r = (exports) => {
/******/ 		if(typeof Symbol !== 'undefined' && Symbol.toStringTag) {
/******/ 			Object.defineProperty(exports, Symbol.toStringTag, { value: 'Module' });
/******/ 		}
/******/ 		Object.defineProperty(exports, '__esModule', { value: true });
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/import chunk loading */
/******/ (() => {
/******/ 	// no baseURI
/******/ 	
/******/ 	// object to store loaded and loading chunks
/******/ 	// undefined = chunk not loaded, null = chunk preloaded/prefetched
/******/ 	// [resolve, Promise] = chunk loading, 0 = chunk loaded
/******/ 	var installedChunks = {
/******/ 		792: 0
/******/ 	};
/******/ 	
/******/ 	var installChunk = (data) => {
/******/ 		var {ids, modules, runtime} = data;
/******/ 		// add "modules" to the modules object,
/******/ 		// then flag all "ids" as loaded and fire callback
/******/ 		var moduleId, chunkId, i = 0;
/******/ 		for(moduleId in modules) {
/******/ 			if(__nccwpck_require__.o(modules, moduleId)) {
/******/ 				__nccwpck_require__.m[moduleId] = modules[moduleId];
/******/ 			}
/******/ 		}
/******/ 		if(runtime) runtime(__nccwpck_require__);
/******/ 		for(;i < ids.length; i++) {
/******/ 			chunkId = ids[i];
/******/ 			if(__nccwpck_require__.o(installedChunks, chunkId) && installedChunks[chunkId]) {
/******/ 				installedChunks[chunkId][0]();
/******/ 			}
/******/ 			installedChunks[ids[i]] = 0;
/******/ 		}
/******/ 	
/******/ 	}
/******/ 	
/******/ 	__nccwpck_require__.f.j = (chunkId, promises) => {
/******/ 			// import() chunk loading for javascript
/******/ 			var installedChunkData = __nccwpck_require__.o(installedChunks, chunkId) ? installedChunks[chunkId] : undefined;
/******/ 			if(installedChunkData !== 0) { // 0 means "already installed".
/******/ 	
/******/ 				// a Promise means "currently loading".
/******/ 				if(installedChunkData) {
/******/ 					promises.push(installedChunkData[1]);
/******/ 				} else {
/******/ 					if(true) { // all chunks have JS
/******/ 						// setup Promise in chunk cache
/******/ 						var promise = import("./" + __nccwpck_require__.u(chunkId)).then(installChunk, (e) => {
/******/ 							if(installedChunks[chunkId] !== 0) installedChunks[chunkId] = undefined;
/******/ 							throw e;
/******/ 						});
/******/ 						var promise = Promise.race([promise, new Promise((resolve) => (installedChunkData = installedChunks[chunkId] = [resolve]))])
/******/ 						promises.push(installedChunkData[1] = promise);
/******/ 					}
/******/ 				}
/******/ 			}
/******/ 	};
/******/ 	
/******/ 	// no prefetching
/******/ 	
/******/ 	// no preloaded
/******/ 	
/******/ 	// no external install chunk
/******/ 	
/******/ 	// no on chunks loaded
/******/ })();
/******/ 
/************************************************************************/
var __webpack_exports__ = {};

// NAMESPACE OBJECT: ./node_modules/@actions/core/lib/platform.js
var platform_namespaceObject = {};
__nccwpck_require__.r(platform_namespaceObject);
__nccwpck_require__.d(platform_namespaceObject, {
  arch: () => (arch),
  getDetails: () => (getDetails),
  isLinux: () => (isLinux),
  isMacOS: () => (isMacOS),
  isWindows: () => (isWindows),
  platform: () => (platform)
});

// NAMESPACE OBJECT: ./node_modules/@actions/core/lib/core.js
var lib_core_namespaceObject = {};
__nccwpck_require__.r(lib_core_namespaceObject);
__nccwpck_require__.d(lib_core_namespaceObject, {
  ExitCode: () => (ExitCode),
  addPath: () => (addPath),
  debug: () => (debug),
  endGroup: () => (endGroup),
  error: () => (error),
  exportVariable: () => (exportVariable),
  getBooleanInput: () => (getBooleanInput),
  getIDToken: () => (getIDToken),
  getInput: () => (getInput),
  getMultilineInput: () => (getMultilineInput),
  getState: () => (getState),
  group: () => (group),
  info: () => (info),
  isDebug: () => (isDebug),
  markdownSummary: () => (markdownSummary),
  notice: () => (notice),
  platform: () => (platform_namespaceObject),
  saveState: () => (saveState),
  setCommandEcho: () => (setCommandEcho),
  setFailed: () => (setFailed),
  setOutput: () => (setOutput),
  setSecret: () => (setSecret),
  startGroup: () => (startGroup),
  summary: () => (summary),
  toPlatformPath: () => (toPlatformPath),
  toPosixPath: () => (toPosixPath),
  toWin32Path: () => (toWin32Path),
  warning: () => (warning)
});

;// CONCATENATED MODULE: external "node:path"
const external_node_path_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:path");
// EXTERNAL MODULE: ./src/lazy/yaml.cjs
var yaml = __nccwpck_require__(4488);
var yaml_default = /*#__PURE__*/__nccwpck_require__.n(yaml);
;// CONCATENATED MODULE: ./src/values.ts
/** Plain values as JSON and YAML give them: the one definition of "a mapping" every layer uses. */
/** A plain object (JSON's object, YAML's map): not an array, a Set, a Map or binary data. */
function isMapping(value) {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
        return false;
    const proto = Object.getPrototypeOf(value);
    return proto === Object.prototype || proto === null;
}
/** Ids are put into paths: these would name another path, even percent-encoded. */
function idProblem(id) {
    if (id === '' || id === '.' || id === '..') {
        return 'an id cannot be empty, "." or ".." (even percent-encoded, it would address another path)';
    }
    return undefined;
}
/** Edits (insert, delete, replace, swap two neighbours) from one word to another. */
function editDistance(a, b) {
    const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
    for (let i = 1; i <= a.length; i++) {
        for (let j = 1; j <= b.length; j++) {
            const cost = a[i - 1] === b[j - 1] ? 0 : 1;
            d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
            if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
                d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
            }
        }
    }
    return d[a.length][b.length];
}
/**
 * The known words closest to `word` (case aside), nearest first, within
 * `max` edits (by default a third of the word's length, at least 2). Long
 * lists are compared only with words of about the same length.
 */
function closest(word, known, limit = 3, max) {
    const w = word.trim().toLowerCase();
    const bound = max ?? Math.max(2, Math.floor(w.length / 3));
    const scored = [];
    for (const candidate of new Set(known)) {
        const c = candidate.toLowerCase();
        if (Math.abs(c.length - w.length) > bound)
            continue;
        const distance = editDistance(w, c);
        if (distance <= bound)
            scored.push([candidate, distance]);
    }
    return scored
        .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))
        .slice(0, limit)
        .map(([candidate]) => candidate);
}
/** " (did you mean "a" or "b"?)", or nothing. */
function didYouMean(word, known) {
    const near = closest(word, known);
    if (near.length === 0)
        return '';
    const quoted = near.map(n => JSON.stringify(n));
    return ` (did you mean ${quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}` : quoted[0]}?)`;
}
/**
 * The forms of time the action reads: ISO 8601 / RFC 3339 (`2026-11-24`,
 * `2026-11-24T03:30`, `...:00`, `...:00.123`, `T`, `t` or a space between date and
 * time) and the same with slashes (`2026/11/24 03:30:00`); a zone `Z`, `UTC`,
 * `GMT`, `+02:00`, `+0200` or `+02`, or none.
 */
const TIME = /^(\d{4})([-/])(\d{2})\2(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?: ?(?:[Zz]|UTC|GMT|([+-])(\d{2})(?::?(\d{2}))?))?)?$/;
/**
 * The one reader of times from the service (and of `since`). A time without
 * a zone is UTC, whatever the runner's time zone (`Date.parse` would read
 * most such forms as local time, and a self-hosted runner is often not on
 * UTC). Any other form (`Nov 24 2026 03:30`, an epoch number, a day that does
 * not exist, 24:00, a leap second) cannot be placed: undefined, never a guess.
 */
function placeTime(value) {
    if (typeof value !== 'string')
        return undefined;
    const m = TIME.exec(value.trim());
    if (!m)
        return undefined;
    const [, y, , mo, d, h = '0', mi = '0', s, fraction, sign, oh = '0', om = '0'] = m;
    const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s ?? '0'].map(Number);
    if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59)
        return undefined;
    const at = new Date(0);
    at.setUTCFullYear(year, month - 1, day);
    if (at.getUTCMonth() !== month - 1 || at.getUTCDate() !== day)
        return undefined;
    const ms = fraction === undefined ? 0 : Number(fraction.padEnd(3, '0').slice(0, 3));
    at.setUTCHours(hour, minute, second, ms);
    if (Number(oh) > 23 || Number(om) > 59)
        return undefined;
    const offsetMin = (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
    const precisionMs = m[5] === undefined
        ? 86_400_000
        : s === undefined
            ? 60_000
            : fraction === undefined
                ? 1000
                : 10 ** Math.max(0, 3 - fraction.length);
    return { ms: at.getTime() - offsetMin * 60_000, precisionMs };
}
/** A time from the service, in ms since the epoch; NaN when it cannot be placed (`placeTime`). */
function timeOf(value) {
    return placeTime(value)?.ms ?? Number.NaN;
}

;// CONCATENATED MODULE: ./src/parse.ts
/**
 * Pure parsers for the runner's input strings. Each returns a value or throws
 * a ValueError that names nothing but the problem; the caller (inputs.ts)
 * adds the input's name.
 */


/** A problem with a value; `inputs.ts` prefixes it with the input's name. */
class ValueError extends Error {
    constructor(message) {
        super(message);
        this.name = 'ValueError';
    }
}
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
/** The largest duration any input accepts but the windows of the past (`since`, `slo-window`): one day. */
const MAX_DURATION_MS = 24 * 3_600_000;
/** Show a value in an error message: quoted, one line, at most 60 characters. */
function quote(value) {
    const oneLine = JSON.stringify(value);
    return oneLine.length > 62 ? `${oneLine.slice(0, 58)}..."` : oneLine;
}
/**
 * A duration: plain seconds (`90`, `1.5`) or numbers with units, combined
 * (`500ms`, `90s`, `5m`, `1h`, `1m30s`; days, `7d`, only where more than a day is allowed), at
 * most `maxMs`. Returns milliseconds.
 */
function parseDuration(value, maxMs = MAX_DURATION_MS) {
    const text = value.trim();
    const units = maxMs > MAX_DURATION_MS ? 'ms|s|m|h|d' : 'ms|s|m|h';
    let ms;
    if (/^\d+(\.\d+)?$/.test(text)) {
        ms = Number(text) * 1000;
    }
    else if (new RegExp(`^(\\d+(\\.\\d+)?(${units}))+$`).test(text)) {
        ms = 0;
        for (const match of text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g))
            ms += Number(match[1]) * UNIT_MS[match[2]];
    }
    else {
        const days = /\dd$/i.test(text) ? '; days are not a unit here' : '';
        throw new ValueError(`must be a duration such as 90, 500ms, 90s, 5m, 1h or 1m30s (at most 24h${days}), got ${quote(value)}`);
    }
    if (!Number.isFinite(ms) || ms > maxMs) {
        const most = maxMs > MAX_DURATION_MS ? `${maxMs / 86_400_000}d` : `${maxMs / 3_600_000}h`;
        throw new ValueError(`must be at most ${most}, got ${quote(value)}`);
    }
    return Math.round(ms);
}
/** The longest `slo-window`: a quarter. */
const MAX_SLO_WINDOW_MS = 90 * 86_400_000;
/** `slo-window`: a duration with its unit (`30d`, `7d`, `720h`), at most 90 days; a bare number (seconds) is refused. */
function parseSloWindow(value) {
    if (/^\d+(\.\d+)?$/.test(value.trim()))
        throw new ValueError(`must be a duration with its unit such as 30d, 7d or 720h, got ${quote(value)}`);
    return parseDuration(value, MAX_SLO_WINDOW_MS);
}
/**
 * `slo`: an objective in percent, in (0, 100), with its sign (`99.9%`, at most 6 decimals), kept exact
 * (`scaled / scale` percent) so the budget's arithmetic never rounds. A bare number is refused (`0.999`).
 */
function parseSlo(value) {
    const text = value.trim();
    if (/^\d+(\.\d+)?$/.test(text))
        throw new ValueError(`must be a percentage with its % sign (99.9%), got ${quote(value)}: a bare number is refused`);
    const m = /^(\d{1,3})(?:\.(\d{1,6}))?[ \t]*%$/.exec(text);
    if (!m)
        throw new ValueError(`must be a percentage such as 99.9% or 99.95%, got ${quote(value)}`);
    const scale = 10 ** (m[2]?.length ?? 0);
    const scaled = Number(m[1]) * scale + Number(m[2] ?? 0);
    if (scaled <= 0 || scaled >= 100 * scale)
        throw new ValueError(`must be above 0% and below 100% (an objective of 100% has no budget), got ${quote(value)}`);
    return { percent: scaled / scale, scaled, scale };
}
/** Booleans as the runner's YAML 1.2 core schema knows them; nothing else. */
function parseBoolean(value) {
    const text = value.trim();
    if (['true', 'True', 'TRUE'].includes(text))
        return true;
    if (['false', 'False', 'FALSE'].includes(text))
        return false;
    throw new ValueError(`must be true or false, got ${quote(value)}`);
}
/**
 * A list: a value that holds a line break splits on line breaks only (so
 * items may contain commas); one without splits on commas. Items are trimmed,
 * empty ones dropped.
 */
function parseList(value) {
    return value
        .split(/\r?\n|\r/.test(value) ? /\r?\n|\r/ : ',')
        .map(item => item.trim())
        .filter(item => item !== '');
}
/** A whole number within bounds. */
function parseWholeNumber(value, min, max) {
    const text = value.trim();
    if (!/^\d+$/.test(text)) {
        throw new ValueError(`must be a whole number, got ${quote(value)}`);
    }
    const n = Number(text);
    if (n < min || n > max) {
        throw new ValueError(`must be between ${min} and ${max}, got ${quote(value)}`);
    }
    return n;
}
/** A non-negative number (`800`, `250.5`) or a duration with a unit (`800ms`, `1s`), as milliseconds. */
function parseMilliseconds(value) {
    const text = value.trim();
    if (/^\d+(\.\d+)?$/.test(text)) {
        const n = Number(text);
        if (n > MAX_DURATION_MS)
            throw new ValueError(`must be at most ${MAX_DURATION_MS}, got ${quote(value)}`);
        return n;
    }
    try {
        return parseDuration(text);
    }
    catch {
        throw new ValueError(`must be a number of milliseconds (800) or a duration (800ms, 1.5s), got ${quote(value)}`);
    }
}
/**
 * `max-response-time-increase`: a percentage of the baseline (`20%`, `12.5%`)
 * or a duration added to it (`150ms`, `0.2s`). A bare number is refused: as
 * a duration it would be seconds (`150` = 150 s), rarely what was meant.
 */
function parseIncrease(value) {
    const text = value.trim();
    // Spaces or tabs between the number and the sign; never a line break.
    const percent = /^(\d+(?:\.\d+)?)[ \t]*%$/.exec(text);
    if (percent) {
        const n = Number(percent[1]);
        if (n > 10_000)
            throw new ValueError(`must be at most 10000%, got ${quote(value)}`);
        return { percent: n };
    }
    // A duration with its unit; parseDuration then holds it to a day.
    if (!/^(\d+(\.\d+)?(ms|s|m|h))+$/.test(text)) {
        throw new ValueError(`must be a percentage (20%) or a duration (150ms), got ${quote(value)}`);
    }
    return { ms: parseDuration(text) };
}
/** The furthest back `since` may reach. */
const MAX_SINCE_MS = 366 * 86_400_000;
/**
 * `since`: a duration back from the step's start (`90m`, `48h`, `7d`), or an
 * ISO 8601 date (`2026-11-23`, midnight UTC) or time with its offset
 * (`2026-11-23T08:00:00Z`, `...+02:00`). A date that does not exist is refused.
 */
function parseSince(value) {
    const text = value.trim();
    const bad = () => new ValueError(`must be a duration (90m, 48h, 7d) or an ISO 8601 time with its offset (2026-11-23T08:00:00Z), got ${quote(value)}`);
    const iso = /^(\d{4})-(\d{2})-(\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/.exec(text);
    if (iso) {
        const [, y, m, d] = iso;
        const day = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
        if (day.getUTCFullYear() !== Number(y) || day.getUTCMonth() !== Number(m) - 1 || day.getUTCDate() !== Number(d)) {
            throw new ValueError(`names a day that does not exist, got ${quote(value)}`);
        }
        const at = timeOf(text);
        if (Number.isNaN(at))
            throw bad();
        return { at };
    }
    let agoMs;
    try {
        agoMs = parseDuration(text, Number.POSITIVE_INFINITY);
    }
    catch {
        throw bad();
    }
    if (agoMs > MAX_SINCE_MS)
        throw new ValueError(`reaches back more than 366 days, got ${quote(value)}`);
    return { agoMs };
}
/** Error codes of the YAML parser that a tab in a line's indentation causes (beside TAB_AS_INDENT itself). */
const TAB_CAUSED = ['BAD_INDENT', 'UNEXPECTED_TOKEN', 'MULTILINE_IMPLICIT_KEY', 'BLOCK_AS_IMPLICIT_KEY'];
/**
 * The line and message of a YAML syntax error, where the user must look. A
 * tab in a line's indentation is named as such (YAML does not allow one; the
 * parser often reports something else, or the line above). A line indented
 * deeper than the one above it continues that line's value, and the parser
 * places its "implicit key" errors at the value's start, the line above the
 * fault: point at the line that holds the key, and say why.
 */
function yamlSyntaxError(errors, lines, text = '') {
    const lineOf = (offset) => lines.linePos(offset).line;
    const textOf = (line) => text.slice(lines.lineStarts[line - 1] ?? 0, lines.lineStarts[line] ?? text.length);
    // A document in flow style (JSON) may be indented with tabs: there a tab is only a space.
    const flow = /^\s*[[{]/.test(text);
    const tabbed = (line) => !flow && /^[ ]*\t[ \t]*\S/.test(textOf(line));
    const tab = errors.find(e => e.code === 'TAB_AS_INDENT') ??
        errors.find(e => TAB_CAUSED.includes(e.code) && [e.pos[0], e.pos[1]].some(pos => tabbed(lineOf(pos))));
    if (tab) {
        const line = [tab.pos[0], tab.pos[1]].map(lineOf).find(tabbed) ?? lineOf(tab.pos[0]);
        return {
            line,
            message: 'this line is indented with a tab, and a tab is not allowed for indentation in YAML; indent it with spaces'
        };
    }
    const deeper = errors.find(e => e.code === 'MULTILINE_IMPLICIT_KEY');
    if (deeper) {
        const above = lineOf(deeper.pos[0]);
        return {
            line: lineOf(deeper.pos[1]),
            message: `this line is indented deeper than the line above it, so YAML reads it as part of the value on line ${above}; indent it as the fields above it`
        };
    }
    const first = errors[0];
    return {
        line: lineOf(first.pos[0]),
        message: first.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')
    };
}
/**
 * Parse YAML (JSON is a subset) with the YAML 1.2 core schema. Duplicate keys
 * and syntax errors are errors that give the line where the parser knows it.
 */
function parseYaml(text) {
    const lines = new (yaml_default()).LineCounter();
    const doc = yaml_default().parseDocument(text, { schema: 'core', uniqueKeys: true, prettyErrors: false, lineCounter: lines });
    if (doc.errors.length > 0) {
        const { line, message } = yamlSyntaxError(doc.errors, lines, text);
        throw new ValueError(`is not valid YAML or JSON (line ${line}): ${message}`);
    }
    return doc.toJS({ maxAliasCount: 100 });
}
/** A YAML or JSON mapping (object); anything else is an error. */
function parseMapping(text) {
    const value = parseYaml(text);
    if (!isMapping(value)) {
        const kind = value === null
            ? 'empty'
            : Array.isArray(value)
                ? 'a list'
                : typeof value === 'object'
                    ? `a ${value.constructor?.name ?? 'tagged value'}`
                    : `a ${typeof value}`;
        throw new ValueError(`must be a YAML or JSON mapping (key: value), got ${kind}`);
    }
    return value;
}
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;
/** base-url: https (plain http only to a loopback host), no credentials, query or fragment; no trailing slash. */
function parseBaseUrl(value) {
    let url;
    try {
        url = new URL(value.trim());
    }
    catch {
        throw new ValueError(`must be an absolute URL such as https://api.example.com/v1, got ${quote(value)}`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
        throw new ValueError(`must be an https URL, got ${quote(url.protocol)}`);
    }
    if (url.protocol === 'http:' && !LOOPBACK.test(url.hostname)) {
        throw new ValueError(`must use https: the API key is only sent over plain http to a loopback host (localhost, 127.x.x.x, [::1]), got host ${quote(url.hostname)}`);
    }
    if (url.username || url.password) {
        throw new ValueError('must not contain a user name or password');
    }
    if (url.search || url.hash) {
        throw new ValueError('must not contain a query (?...) or fragment (#...)');
    }
    return url.href.replace(/\/+$/, '');
}
/** api-key: one token of printable ASCII (it goes into a header); the value is never echoed. */
function parseApiKey(value) {
    const key = value.trim();
    // Never echo the value: it is a secret.
    if (/[\s\u0000-\u001f\u007f]/.test(key)) {
        throw new ValueError('must be a single token without spaces, line breaks or control characters');
    }
    // It goes into the Authorization header, which takes printable ASCII only.
    if (/[^\u0021-\u007e]/.test(key)) {
        throw new ValueError('must be printable ASCII (it is sent in the Authorization header); it holds a character outside that range, which usually means it was pasted with an extra character');
    }
    return key;
}
/** One line without control characters, trimmed. */
const oneLine = (value) => {
    const trimmed = value.trim();
    if (/[\u0000-\u001f\u007f]/.test(trimmed)) {
        throw new ValueError(`must be one line without control characters, got ${quote(value)}`);
    }
    return trimmed;
};
/** An id that addresses one resource (not empty, . or ..). */
const anId = (value) => {
    const id = oneLine(value);
    const problem = idProblem(id);
    if (problem)
        throw new ValueError(`is ${quote(id)}: ${problem}`);
    return id;
};

;// CONCATENATED MODULE: ./src/api/errors.ts
/**
 * Errors of the API client. Every message names the method, the path (relative
 * to the base URL, never with the key) and, for HTTP errors, the status and the
 * server's own message.
 */
class ApiError extends Error {
    kind;
    method;
    path;
    status;
    serverMessage;
    /** The message without the leading method and path. */
    detail;
    constructor(init) {
        super(`${init.method} ${init.path} ${init.detail}`);
        this.name = 'ApiError';
        this.kind = init.kind;
        this.method = init.method;
        this.path = init.path;
        this.status = init.status;
        this.serverMessage = init.serverMessage;
        this.detail = init.detail;
    }
}
const MAX_MESSAGE = 300;
function clip(text) {
    const flat = text.replace(/\s+/g, ' ').trim();
    return flat.length > MAX_MESSAGE ? `${flat.slice(0, MAX_MESSAGE)}...` : flat;
}
function asText(value) {
    if (typeof value === 'string' && value.trim() !== '')
        return value;
    if (typeof value === 'object' && value !== null) {
        const o = value;
        for (const key of ['message', 'detail', 'title', 'description', 'error']) {
            const inner = asText(o[key]);
            if (inner)
                return inner;
        }
    }
    return undefined;
}
/**
 * The server's message from an error body of unknown shape: `error.message`,
 * `error`, `message`, `errors[]`, or the start of the text itself.
 */
function serverMessageOf(body) {
    const text = body.trim();
    if (text === '')
        return undefined;
    let parsed;
    try {
        parsed = JSON.parse(text);
    }
    catch {
        // HTML error pages: keep the title or the visible text, not the markup.
        const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1];
        const visible = title ?? text.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>|<[^>]+>/gi, ' ');
        return clip(visible) || undefined;
    }
    if (typeof parsed === 'object' && parsed !== null) {
        const o = parsed;
        const direct = asText(o.error) ?? asText(o.message) ?? asText(o.detail) ?? asText(o.title);
        if (direct)
            return clip(direct);
        if (Array.isArray(o.errors)) {
            const parts = o.errors.map(e => asText(e) ?? JSON.stringify(e)).filter(Boolean);
            if (parts.length > 0)
                return clip(parts.join('; '));
        }
    }
    if (typeof parsed === 'string')
        return clip(parsed);
    return clip(text);
}
const REASONS = {
    400: 'Bad Request',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'Not Found',
    405: 'Method Not Allowed',
    409: 'Conflict',
    413: 'Payload Too Large',
    422: 'Unprocessable Entity',
    429: 'Too Many Requests',
    500: 'Internal Server Error',
    502: 'Bad Gateway',
    503: 'Service Unavailable',
    504: 'Gateway Timeout'
};
const AUTH_HINT = 'The API key is missing or invalid: the key is found in the monitoring service\'s account settings, under "API access"; pass it from a secret as the api-key input.';
function httpError(method, path, status, body) {
    const serverMessage = serverMessageOf(body);
    const reason = REASONS[status] ?? '';
    let detail = `failed: HTTP ${status}${reason ? ` ${reason}` : ''}`;
    if (serverMessage)
        detail += `: ${serverMessage}`;
    if (status === 401)
        detail += `. ${AUTH_HINT}`;
    if (status === 403)
        detail += '. The API key is valid but not allowed to do this (plan tier or key permissions).';
    return new ApiError({ kind: 'http', method, path, status, serverMessage, detail });
}
/** The same error, saying how many attempts were made. */
function withAttempts(error, attempts) {
    return new ApiError({
        kind: error.kind,
        method: error.method,
        path: error.path,
        status: error.status,
        serverMessage: error.serverMessage,
        detail: `${error.detail} (after ${attempts} attempts)`
    });
}
/** Gave up on a 429: after the retries, or because the server asked for a wait longer than the action makes. */
function rateLimitError(method, path, body, attempts, tooLongMs) {
    const base = httpError(method, path, 429, body);
    const detail = tooLongMs
        ? `was rate limited (HTTP 429): the service asked to wait ${Math.ceil(tooLongMs / 1000)} s, more than the 2 minutes the action waits; gave up`
        : `was rate limited (HTTP 429) after ${attempts} attempts (max-retries ${attempts - 1}); the service allows 100 requests a minute${base.serverMessage ? `: ${base.serverMessage}` : ''}`;
    return new ApiError({ kind: 'rate-limit', method, path, status: 429, serverMessage: base.serverMessage, detail });
}
/** Ambiguous failures of a POST: the create may or may not have happened. */
function isAmbiguous(error) {
    if (!(error instanceof ApiError))
        return false;
    if (error.kind === 'network' || error.kind === 'timeout')
        return true;
    return error.kind === 'http' && error.status !== undefined && (error.status >= 500 || error.status === 408);
}

;// CONCATENATED MODULE: ./src/api/retry.ts
/**
 * The retry policy, in one place: what may be retried, and how long to wait.
 * `decide` is the whole decision after one attempt, as a pure function; the
 * client only carries it out.
 */
/** A wait longer than this is not made: the action gives up instead. */
const MAX_RATE_LIMIT_WAIT_MS = 120_000;
const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 20_000;
/** Statuses that are never retried: the request itself is wrong. */
function isRetryableStatus(status) {
    return status === 429 || status === 408 || status >= 500;
}
/**
 * May this failure be retried as it is? GET, PUT and DELETE are idempotent.
 * A POST may only be resent after a 429 (the request was refused, nothing was
 * created); any other POST failure is ambiguous and needs a look first.
 */
function mayResend(method, status) {
    if (status === 429)
        return true;
    return method !== 'POST';
}
/** Retry-After: delta-seconds or an HTTP date. */
function parseRetryAfter(value, now) {
    if (value === undefined)
        return undefined;
    const text = value.trim();
    if (/^\d+(\.\d+)?$/.test(text))
        return Math.ceil(Number(text) * 1000);
    const date = Date.parse(text);
    if (Number.isNaN(date))
        return undefined;
    return Math.max(0, date - now);
}
/** RateLimit-Reset / X-RateLimit-Reset: under 10^9 seconds from now, else a Unix time in seconds. */
function parseRateLimitReset(value, now) {
    if (value === undefined)
        return undefined;
    const text = value.trim();
    if (!/^\d+(\.\d+)?$/.test(text))
        return undefined;
    const n = Number(text);
    if (n < 1e9)
        return Math.ceil(n * 1000);
    return Math.max(0, Math.ceil(n * 1000 - now));
}
function header(headers, name) {
    const value = headers[name.toLowerCase()];
    return Array.isArray(value) ? value[0] : value;
}
/** How long the server asked us to wait, if it said. */
function serverWaitMs(headers, now) {
    return (parseRetryAfter(header(headers, 'retry-after'), now) ??
        parseRateLimitReset(header(headers, 'ratelimit-reset'), now) ??
        parseRateLimitReset(header(headers, 'x-ratelimit-reset'), now));
}
/**
 * What the server says is left of the key's budget: `RateLimit-Remaining` /
 * `X-RateLimit-Remaining` with the matching reset header. Undefined when it
 * does not say both.
 */
function serverBudget(headers, now) {
    for (const prefix of ['ratelimit', 'x-ratelimit']) {
        const remaining = header(headers, `${prefix}-remaining`)?.trim();
        const resetInMs = parseRateLimitReset(header(headers, `${prefix}-reset`), now);
        if (remaining !== undefined && /^\d+$/.test(remaining) && resetInMs !== undefined) {
            const limit = header(headers, `${prefix}-limit`)?.trim();
            return {
                remaining: Number(remaining),
                resetInMs,
                ...(limit && /^\d+$/.test(limit) ? { limit: Number(limit) } : {})
            };
        }
    }
    return undefined;
}
/** Exponential backoff with jitter: half fixed, half random. `attempt` counts from 1. */
function backoffMs(attempt, random = Math.random) {
    const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
    return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
/**
 * After attempt number `attempt` (from 1) of `method` failed with `outcome`:
 * retry, and after how long, or stop. 429 is retried for every method (it was
 * refused); 408, 5xx and failures without an answer only for methods that may
 * be resent (never a POST: that is ambiguous, see create.ts).
 */
function decide(method, attempt, maxRetries, outcome, now, random = Math.random) {
    const status = 'status' in outcome ? outcome.status : undefined;
    if (status !== undefined && !isRetryableStatus(status))
        return { retry: false, reason: 'not retryable' };
    if (!mayResend(method, status))
        return { retry: false, reason: 'not retryable' };
    const asked = 'headers' in outcome ? serverWaitMs(outcome.headers, now) : undefined;
    const waitMs = asked ?? backoffMs(attempt, random);
    // A 429 that asks for too long a wait is given up on as such, whatever the count.
    if (status === 429 && waitMs > MAX_RATE_LIMIT_WAIT_MS)
        return { retry: false, reason: 'wait too long', tooLongMs: waitMs };
    if (attempt > maxRetries)
        return { retry: false, reason: 'out of retries' };
    return { retry: true, waitMs: Math.min(waitMs, MAX_RATE_LIMIT_WAIT_MS), asked: asked !== undefined };
}

;// CONCATENATED MODULE: ./src/api/create.ts


async function createResource(client, path, body, schema, what, recovery) {
    const { maxRetries, requestTimeoutMs } = client.settings;
    for (let attempt = 1;; attempt++) {
        const started = client.clock.now();
        try {
            const response = await client.send('POST', path, body);
            if (response.body.trim() === '') {
                throw new ApiError({
                    kind: 'invalid-response',
                    method: 'POST',
                    path,
                    status: response.status,
                    detail: `returned HTTP ${response.status} with an empty body; expected the created ${what}`
                });
            }
            const item = client.readOne(schema, 'POST', response, `the created ${what}`);
            return { item, recovered: false, tookMs: response.tookMs };
        }
        catch (error) {
            const unreadable = error instanceof ApiError && error.kind === 'invalid-response';
            if (!isAmbiguous(error) && !unreadable)
                throw error;
            const failure = error;
            const failedAt = client.clock.now();
            client.log.warning(`${failure.message}. Looking ${path} up to see whether the ${what} was created anyway.`);
            if (failure.kind === 'timeout') {
                // The server may still be working on it: give it as long again before looking.
                await client.waitToRetry(requestTimeoutMs, 'POST', path, failure.detail);
            }
            const found = (await client.list(path, schema, what)).filter(item => !recovery.before.has(item.id) && recovery.matches(item));
            if (found.length > 0) {
                // Racing runs may have created the same meanwhile: which one is ours is unknown. Take the
                // smallest id, the one convergence after a confirmed miss keeps (operations/converge.ts).
                const item = found.reduce((a, b) => (b.id < a.id ? b : a));
                client.log.info(`The ${what} was created despite the failure: ${item.id}`);
                // How long the create took is unknown: at least until the failure.
                return { item, recovered: true, tookMs: failedAt - started };
            }
            // A 2xx said it was created: sending it again could only make a second one.
            if (unreadable)
                throw failure;
            if (attempt > maxRetries) {
                throw new ApiError({
                    kind: failure.kind,
                    method: 'POST',
                    path,
                    status: failure.status,
                    serverMessage: failure.serverMessage,
                    detail: `${failure.detail} (${attempt} attempts; no ${what} was created: checked after each failure)`
                });
            }
            const ms = backoffMs(attempt, client.random);
            client.log.warning(`No ${what} was created; sending POST ${path} again (retry ${attempt} of ${maxRetries}) in ${(ms / 1000).toFixed(1)} s`);
            await client.waitToRetry(ms, 'POST', path, failure.detail);
        }
    }
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/util.js

// functions
function assertEqual(val) {
    return val;
}
function assertNotEqual(val) {
    return val;
}
function toZod() {
    return (schema) => schema;
}
function assertIs(_arg) { }
function assertNever(_x) {
    throw new Error("Unexpected value in exhaustive check");
}
function assert(_) { }
function getEnumValues(entries) {
    const numericValues = Object.values(entries).filter((v) => typeof v === "number");
    const values = Object.entries(entries)
        .filter(([k, _]) => numericValues.indexOf(+k) === -1)
        .map(([_, v]) => v);
    return values;
}
function joinValues(array, separator = "|") {
    return array.map((val) => stringifyPrimitive(val)).join(separator);
}
function jsonStringifyReplacer(_, value) {
    if (typeof value === "bigint")
        return value.toString();
    return value;
}
// the accessor lives on a shared prototype: an own accessor makes every box a dictionary-mode object (~360 B and a slow load per read against ~100 B and an inlined getter here)
class Cached {
    constructor(getter) {
        this._getter = getter;
        this._value = undefined;
    }
    get value() {
        const getter = this._getter;
        if (getter !== undefined) {
            this._value = getter();
            this._getter = undefined;
        }
        return this._value;
    }
}
function cached(getter) {
    return new Cached(getter);
}
function nullish(input) {
    return input === null || input === undefined;
}
function cleanRegex(source) {
    const start = source.startsWith("^") ? 1 : 0;
    const end = source.endsWith("$") ? source.length - 1 : source.length;
    return source.slice(start, end);
}
function floatSafeRemainder(val, step) {
    const ratio = val / step;
    const roundedRatio = Math.round(ratio);
    // `val` and `step` each round to a double before the division rounds again, so a true decimal multiple's quotient can sit up to 1.5 of these scaled epsilons from the integer. A 1x tolerance therefore rejected 2.03 as a multiple of 0.07; 4x covers the worst case with margin.
    const tolerance = 4 * Number.EPSILON * Math.max(Math.abs(ratio), 1);
    if (Math.abs(ratio - roundedRatio) < tolerance)
        return 0;
    return ratio - roundedRatio;
}
const EVALUATING = /* @__PURE__*/ (/* unused pure expression or super */ null && (Symbol("evaluating")));
function defineLazy(object, key, getter) {
    let value = undefined;
    Object.defineProperty(object, key, {
        get() {
            if (value === EVALUATING) {
                // Circular reference detected, return undefined to break the cycle
                return undefined;
            }
            if (value === undefined) {
                value = EVALUATING;
                value = getter();
            }
            return value;
        },
        set(v) {
            Object.defineProperty(object, key, {
                value: v,
                // configurable: true,
            });
            // object[key] = v;
        },
        configurable: true,
    });
}
function objectClone(obj) {
    return Object.create(Object.getPrototypeOf(obj), Object.getOwnPropertyDescriptors(obj));
}
function assignProp(target, prop, value) {
    Object.defineProperty(target, prop, {
        value,
        writable: true,
        enumerable: true,
        configurable: true,
    });
}
/**
 * Whichever object a def's `shape` currently answers from: the one the caller passed until the first read, the frozen copy after it.
 *
 * Its keys and descriptors read without invoking anything, which is what lets a discriminated union check its discriminator, and the cycle walk read a shape, without resolving a getter that references the schema being constructed. A def that answers `shape` from an accessor of its own has none.
 */
function rawShape(def) {
    const desc = Object.getOwnPropertyDescriptor(def, "shape");
    return desc?.get ? desc.get.raw : desc?.value;
}
// where a builder reads its source's keys and descriptors, resolving only a shape a def answers for itself. A shape resolves by object spread, so only its enumerable keys are ever part of it.
function sourceShape(schema) {
    return rawShape(schema._zod.def) ?? schema._zod.def.shape;
}
// a key whose value is not settled yet, self-caching so every read after the first gets the same one
function deferProp(target, key, getter) {
    Object.defineProperty(target, key, {
        get() {
            const value = getter();
            assignProp(this, key, value);
            return value;
        },
        enumerable: true,
        configurable: true,
    });
}
// Writes a settled key. A plain assignment is much cheaper than `defineProperty` and produces the same descriptor, but it runs whatever setter already answers to the key — an accessor this shape deferred, or an inherited one, which `__proto__` has on every object and prototype pollution can add for any name.
function putProp(target, key, value) {
    if (key in target)
        assignProp(target, key, value);
    else
        target[key] = value;
}
/**
 * Copies `keys` of `source`'s shape onto `target`, each value passed through `wrap`.
 *
 * A key the source has resolved is copied through now, so the derived shape states it outright and nothing has to resolve it to learn what it holds. A key the source still defers stays deferred, and reads back through the source's own `shape`, so it resolves once and both shapes get that one schema.
 */
function mirrorShape(target, source, keys, wrap) {
    const raw = sourceShape(source);
    for (const key of keys) {
        const desc = Object.getOwnPropertyDescriptor(raw, key);
        if (!desc.enumerable)
            continue;
        if (desc.get) {
            deferProp(target, key, () => {
                const value = source._zod.def.shape[key];
                return wrap ? wrap(value, key) : value;
            });
        }
        else
            putProp(target, key, wrap ? wrap(desc.value, key) : desc.value);
    }
}
// same, for a plain shape a caller passed rather than a schema's
function mirrorProps(target, source) {
    for (const key of Reflect.ownKeys(source)) {
        const desc = Object.getOwnPropertyDescriptor(source, key);
        if (!desc.enumerable)
            continue;
        if (desc.get)
            deferProp(target, key, () => source[key]);
        else
            putProp(target, key, desc.value);
    }
}
function mergeDefs(...defs) {
    const mergedDescriptors = {};
    for (const def of defs) {
        const descriptors = Object.getOwnPropertyDescriptors(def);
        Object.assign(mergedDescriptors, descriptors);
    }
    return Object.defineProperties({}, mergedDescriptors);
}
function cloneDef(schema) {
    return mergeDefs(schema._zod.def);
}
function getElementAtPath(obj, path) {
    if (!path)
        return obj;
    return path.reduce((acc, key) => acc?.[key], obj);
}
function promiseAllObject(promisesObj) {
    const keys = Object.keys(promisesObj);
    const promises = keys.map((key) => promisesObj[key]);
    return Promise.all(promises).then((results) => {
        const resolvedObj = {};
        for (let i = 0; i < keys.length; i++) {
            resolvedObj[keys[i]] = results[i];
        }
        return resolvedObj;
    });
}
function randomString(length = 10) {
    const chars = "abcdefghijklmnopqrstuvwxyz";
    let str = "";
    for (let i = 0; i < length; i++) {
        str += chars[Math.floor(Math.random() * chars.length)];
    }
    return str;
}
function esc(str) {
    return JSON.stringify(str);
}
function slugify(input) {
    return input
        .toLowerCase()
        .trim()
        .replace(/[^\w\s-]/g, "")
        .replace(/[\s_-]+/g, "-")
        .replace(/^-+|-+$/g, "");
}
const captureStackTrace = ("captureStackTrace" in Error ? Error.captureStackTrace : (..._args) => { });
function util_isObject(data) {
    return typeof data === "object" && data !== null && !Array.isArray(data);
}
const allowsEval = /* @__PURE__*/ (/* unused pure expression or super */ null && (cached(() => {
    // Skip the probe under `jitless`: strict CSPs report the caught `new Function` as a `securitypolicyviolation` even though the throw is swallowed.
    if (globalConfig.jitless) {
        return false;
    }
    // @ts-ignore
    if (typeof navigator !== "undefined" && navigator?.userAgent?.includes("Cloudflare")) {
        return false;
    }
    try {
        const F = Function;
        new F("");
        return true;
    }
    catch (_) {
        return false;
    }
})));
function isPlainObject(o) {
    if (util_isObject(o) === false)
        return false;
    // modified constructor
    const ctor = o.constructor;
    if (ctor === undefined)
        return true;
    if (typeof ctor !== "function")
        return true;
    // modified prototype
    const prot = ctor.prototype;
    if (util_isObject(prot) === false)
        return false;
    // ctor doesn't have static `isPrototypeOf`
    if (Object.prototype.hasOwnProperty.call(prot, "isPrototypeOf") === false) {
        return false;
    }
    return true;
}
function shallowClone(o) {
    if (isPlainObject(o))
        return { ...o };
    if (Array.isArray(o))
        return [...o];
    if (o instanceof Map)
        return new Map(o);
    if (o instanceof Set)
        return new Set(o);
    return o;
}
function numKeys(data) {
    let keyCount = 0;
    for (const key in data) {
        if (Object.prototype.hasOwnProperty.call(data, key)) {
            keyCount++;
        }
    }
    return keyCount;
}
const getParsedType = (data) => {
    const t = typeof data;
    switch (t) {
        case "undefined":
            return "undefined";
        case "string":
            return "string";
        case "number":
            return Number.isNaN(data) ? "nan" : "number";
        case "boolean":
            return "boolean";
        case "function":
            return "function";
        case "bigint":
            return "bigint";
        case "symbol":
            return "symbol";
        case "object":
            if (Array.isArray(data)) {
                return "array";
            }
            if (data === null) {
                return "null";
            }
            if (data.then && typeof data.then === "function" && data.catch && typeof data.catch === "function") {
                return "promise";
            }
            if (typeof Map !== "undefined" && data instanceof Map) {
                return "map";
            }
            if (typeof Set !== "undefined" && data instanceof Set) {
                return "set";
            }
            if (typeof Date !== "undefined" && data instanceof Date) {
                return "date";
            }
            // @ts-ignore
            if (typeof File !== "undefined" && data instanceof File) {
                return "file";
            }
            return "object";
        default:
            throw new Error(`Unknown data type: ${t}`);
    }
};
const propertyKeyTypes = /* @__PURE__*/ new Set(["string", "number", "symbol"]);
const primitiveTypes = /* @__PURE__*/ new Set([
    "string",
    "number",
    "bigint",
    "boolean",
    "symbol",
    "undefined",
]);
function escapeRegex(str) {
    return str.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
// zod-specific utils
function clone(inst, def, params) {
    const cl = new inst._zod.constr(def ?? inst._zod.def);
    if (!def || params?.parent)
        cl._zod.parent = inst;
    return cl;
}
function normalizeParams(_params) {
    const params = _params;
    if (!params)
        return {};
    if (typeof params === "string")
        return { error: () => params };
    if (params?.message !== undefined) {
        if (params?.error !== undefined)
            throw new Error("Cannot specify both `message` and `error` params");
        params.error = params.message;
    }
    delete params.message;
    if (typeof params.error === "string")
        return { ...params, error: () => params.error };
    return params;
}
function createTransparentProxy(getter) {
    let target;
    return new Proxy({}, {
        get(_, prop, receiver) {
            target ?? (target = getter());
            return Reflect.get(target, prop, receiver);
        },
        set(_, prop, value, receiver) {
            target ?? (target = getter());
            return Reflect.set(target, prop, value, receiver);
        },
        has(_, prop) {
            target ?? (target = getter());
            return Reflect.has(target, prop);
        },
        deleteProperty(_, prop) {
            target ?? (target = getter());
            return Reflect.deleteProperty(target, prop);
        },
        ownKeys(_) {
            target ?? (target = getter());
            return Reflect.ownKeys(target);
        },
        getOwnPropertyDescriptor(_, prop) {
            target ?? (target = getter());
            return Reflect.getOwnPropertyDescriptor(target, prop);
        },
        defineProperty(_, prop, descriptor) {
            target ?? (target = getter());
            return Reflect.defineProperty(target, prop, descriptor);
        },
    });
}
function stringifyPrimitive(value) {
    if (typeof value === "bigint")
        return value.toString() + "n";
    if (typeof value === "string")
        return `"${value}"`;
    return `${value}`;
}
function optionalKeys(shape) {
    return Object.keys(shape).filter((k) => {
        return shape[k]._zod.optin !== undefined && shape[k]._zod.optout === "optional";
    });
}
// Wrapped in a `@__PURE__` IIFE: esbuild never tree-shakes a top-level initializer that contains a member access on `Number`, so the bare object literal survived into every bundle.
const NUMBER_FORMAT_RANGES = /*@__PURE__*/ (() => ({
    safeint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
    int32: [-2147483648, 2147483647],
    uint32: [0, 4294967295],
    float32: [-3.4028234663852886e38, 3.4028234663852886e38],
    float64: [-Number.MAX_VALUE, Number.MAX_VALUE],
}))();
const BIGINT_FORMAT_RANGES = {
    int64: [/* @__PURE__*/ BigInt("-9223372036854775808"), /* @__PURE__*/ BigInt("9223372036854775807")],
    uint64: [/* @__PURE__*/ BigInt(0), /* @__PURE__*/ BigInt("18446744073709551615")],
};
function pick(schema, mask) {
    const currDef = schema._zod.def;
    const checks = currDef.checks;
    const hasChecks = checks && checks.length > 0;
    if (hasChecks) {
        throw new Error(".pick() cannot be used on object schemas containing refinements");
    }
    const newShape = {};
    mirrorShape(newShape, schema, maskedKeys(schema, mask));
    return clone(schema, mergeDefs(currDef, { shape: newShape, checks: [] }));
}
// the mask keys that select something, checked against the source's shape without resolving it
function maskedKeys(schema, mask) {
    const raw = sourceShape(schema);
    const keys = [];
    // `for...in` skips symbols, so a symbol in the mask would select nothing
    for (const key of Reflect.ownKeys(mask)) {
        if (!Object.getOwnPropertyDescriptor(raw, key)?.enumerable) {
            throw new Error(`Unrecognized key: "${String(key)}"`);
        }
        if (mask[key])
            keys.push(key);
    }
    return keys;
}
function omit(schema, mask) {
    const currDef = schema._zod.def;
    const checks = currDef.checks;
    const hasChecks = checks && checks.length > 0;
    if (hasChecks) {
        throw new Error(".omit() cannot be used on object schemas containing refinements");
    }
    const omitted = new Set(maskedKeys(schema, mask));
    const newShape = {};
    mirrorShape(newShape, schema, Reflect.ownKeys(sourceShape(schema)).filter((key) => !omitted.has(key)));
    return clone(schema, mergeDefs(currDef, { shape: newShape, checks: [] }));
}
function extend(schema, shape) {
    if (!isPlainObject(shape)) {
        throw new Error("Invalid input to extend: expected a plain object");
    }
    const checks = schema._zod.def.checks;
    const hasChecks = checks && checks.length > 0;
    if (hasChecks) {
        // Only throw if new shape overlaps with existing shape. Use getOwnPropertyDescriptor to check key existence without accessing values
        const existingShape = sourceShape(schema);
        for (const key of Reflect.ownKeys(shape)) {
            if (Object.getOwnPropertyDescriptor(existingShape, key) !== undefined) {
                throw new Error("Cannot overwrite keys on object schemas containing refinements. Use `.safeExtend()` instead.");
            }
        }
    }
    return clone(schema, mergeDefs(schema._zod.def, { shape: extended(schema, shape) }));
}
// the source's keys, then the caller's overlaid on top
function extended(schema, shape) {
    const newShape = {};
    mirrorShape(newShape, schema, Reflect.ownKeys(sourceShape(schema)));
    mirrorProps(newShape, shape);
    return newShape;
}
function safeExtend(schema, shape) {
    if (!isPlainObject(shape)) {
        throw new Error("Invalid input to safeExtend: expected a plain object");
    }
    return clone(schema, mergeDefs(schema._zod.def, { shape: extended(schema, shape) }));
}
function merge(a, b) {
    if (!b?._zod?.def) {
        throw new Error("Invalid input to merge: expected an object schema. To merge a plain shape, use `.extend()`.");
    }
    if (a._zod.def.checks?.length) {
        throw new Error(".merge() cannot be used on object schemas containing refinements. Use .safeExtend() instead.");
    }
    const newShape = {};
    mirrorShape(newShape, a, Reflect.ownKeys(sourceShape(a)));
    mirrorShape(newShape, b, Reflect.ownKeys(sourceShape(b)));
    const def = mergeDefs(a._zod.def, {
        shape: newShape,
        get catchall() {
            return b._zod.def.catchall;
        },
        checks: b._zod.def.checks ?? [],
    });
    return clone(a, def);
}
function partial(Class, schema, mask, name = "partial") {
    const currDef = schema._zod.def;
    const checks = currDef.checks;
    const hasChecks = checks && checks.length > 0;
    if (hasChecks) {
        throw new Error(`.${name}() cannot be used on object schemas containing refinements`);
    }
    const selected = mask ? new Set(maskedKeys(schema, mask)) : undefined;
    const newShape = {};
    mirrorShape(newShape, schema, Reflect.ownKeys(sourceShape(schema)), Class &&
        ((value, key) => (selected && !selected.has(key) ? value : new Class({ type: "optional", innerType: value }))));
    return clone(schema, mergeDefs(schema._zod.def, { shape: newShape, checks: [] }));
}
function required(Class, schema, mask) {
    const selected = mask ? new Set(maskedKeys(schema, mask)) : undefined;
    const newShape = {};
    mirrorShape(newShape, schema, Reflect.ownKeys(sourceShape(schema)), (value, key) => 
    // overwrite with non-optional
    selected && !selected.has(key) ? value : new Class({ type: "nonoptional", innerType: value }));
    return clone(schema, mergeDefs(schema._zod.def, { shape: newShape }));
}
// invalid_type | too_big | too_small | invalid_format | not_multiple_of | unrecognized_keys | invalid_union | invalid_key | invalid_element | invalid_value | custom
function aborted(x, startIndex = 0) {
    if (x.aborted === true)
        return true;
    for (let i = startIndex; i < x.issues.length; i++) {
        if (x.issues[i]?.continue !== true) {
            return true;
        }
    }
    return false;
}
// Checks for explicit abort (continue === false), as opposed to implicit abort (continue === undefined). Used to respect `abort: true` in .refine() even for checks that have a `when` function.
function explicitlyAborted(x, startIndex = 0) {
    if (x.aborted === true)
        return true;
    for (let i = startIndex; i < x.issues.length; i++) {
        if (x.issues[i]?.continue === false) {
            return true;
        }
    }
    return false;
}
function prefixIssues(path, issues) {
    return issues.map((iss) => {
        var _a;
        (_a = iss).path ?? (_a.path = []);
        iss.path.unshift(path);
        return iss;
    });
}
function unwrapMessage(message) {
    return typeof message === "string" ? message : message?.message;
}
/* A check holds no link back to the schema it is attached to — the same check instance is shared by every clone of that schema — so the owner is stamped onto the issues a check just raised, at the only point where both are in scope. Runs on the failure path only; `start` is the issue count from before the check ran. */
/** The leading size checks of `defChecks` that set an upper bound, each paired with it. */
function sizeCaps(defChecks) {
    const caps = [];
    for (const ch of defChecks ?? []) {
        const d = ch._zod.def;
        // a later check may rewrite the value
        if (!/_(length|size)$|_equals$/.test(d.check))
            break;
        const max = d.maximum ?? d.length ?? d.size;
        if (max >= 0)
            caps.push([max, ch]);
    }
    return caps;
}
function attachSchema(issues, start, inst) {
    var _a;
    for (let i = start; i < issues.length; i++) {
        (_a = issues[i]).schema ?? (_a.schema = inst);
    }
}
function finalizeIssue(iss, ctx, config) {
    var _a;
    // A schema that raised an issue itself owns it outright, and outranks any stamp an enclosing check left in `attachSchema`. String formats and z.custom() are schema and check at once, so when they act as a check they defer to that stamp instead.
    const traits = iss.inst?._zod?.traits;
    if (traits?.has("$ZodType")) {
        if (traits.has("$ZodCheck"))
            (_a = iss).schema ?? (_a.schema = iss.inst);
        else
            iss.schema = iss.inst;
    }
    // Decreasing specificity, first map to return a message wins. `inst` is whatever raised the issue, so a check's own map outranks the owning schema's.
    const schemaError = iss.schema !== iss.inst ? iss.schema?._zod.def?.error : undefined;
    const message = iss.message
        ? iss.message
        : (unwrapMessage(iss.inst?._zod.def?.error?.(iss)) ??
            unwrapMessage(schemaError?.(iss)) ??
            unwrapMessage(ctx?.error?.(iss)) ??
            unwrapMessage(config.customError?.(iss)) ??
            unwrapMessage(config.localeError?.(iss)) ??
            "Invalid input");
    // an explicit own-key copy beats object rest with excluded keys, which v8 routes through a generic runtime call; Object.keys rather than for-in so an issue pushed with a prototype does not leak inherited keys, and an own __proto__ key is dropped rather than assigned through the setter
    const full = {};
    for (const k of Object.keys(iss)) {
        if (k === "inst" || k === "schema" || k === "continue" || k === "input" || k === "__proto__")
            continue;
        full[k] = iss[k];
    }
    full.path ?? (full.path = []);
    full.message = message;
    if (ctx?.reportInput) {
        full.input = iss.input;
    }
    return full;
}
function getSizableOrigin(input) {
    if (input instanceof Set)
        return "set";
    if (input instanceof Map)
        return "map";
    // @ts-ignore
    if (input instanceof File)
        return "file";
    return "unknown";
}
const highSurrogate = /[\uD800-\uDBFF]/;
// Code points in `str`: a surrogate pair counts once, a lone surrogate as itself. Hand-rolled because the string iterator allocates and runs ~250x slower on this path; the regex probe exits ~50x quicker for a string with no astral characters.
function codePointLength(str) {
    const units = str.length;
    if (!highSurrogate.test(str))
        return units;
    let count = units;
    for (let i = 0; i < units - 1; i++) {
        if ((str.charCodeAt(i) & 0xfc00) === 0xd800 && (str.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
            count--;
            i++;
        }
    }
    return count;
}
function getLengthableOrigin(input) {
    if (Array.isArray(input))
        return "array";
    if (typeof input === "string")
        return "string";
    return "unknown";
}
function parsedType(data) {
    const t = typeof data;
    switch (t) {
        case "number": {
            return Number.isNaN(data) ? "nan" : "number";
        }
        case "object": {
            if (data === null) {
                return "null";
            }
            if (Array.isArray(data)) {
                return "array";
            }
            const obj = data;
            if (obj && Object.getPrototypeOf(obj) !== Object.prototype && "constructor" in obj && obj.constructor) {
                return obj.constructor.name;
            }
        }
    }
    return t;
}
function util_issue(...args) {
    const [iss, input, inst] = args;
    if (typeof iss === "string") {
        return {
            message: iss,
            code: "custom",
            input,
            inst,
        };
    }
    return { ...iss };
}
function cleanEnum(obj) {
    return Object.entries(obj)
        .filter(([k, _]) => {
        // return true if NaN, meaning it's not a number, thus a string key
        return Number.isNaN(Number.parseInt(k, 10));
    })
        .map((el) => el[1]);
}
// Codec utility functions
function base64ToUint8Array(base64) {
    const binaryString = atob(base64);
    const bytes = new Uint8Array(binaryString.length);
    for (let i = 0; i < binaryString.length; i++) {
        bytes[i] = binaryString.charCodeAt(i);
    }
    return bytes;
}
function uint8ArrayToBase64(bytes) {
    let binaryString = "";
    for (let i = 0; i < bytes.length; i++) {
        binaryString += String.fromCharCode(bytes[i]);
    }
    return btoa(binaryString);
}
function base64urlToUint8Array(base64url) {
    const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
    const padding = "=".repeat((4 - (base64.length % 4)) % 4);
    return base64ToUint8Array(base64 + padding);
}
function uint8ArrayToBase64url(bytes) {
    return uint8ArrayToBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=/g, "");
}
function hexToUint8Array(hex) {
    const cleanHex = hex.replace(/^0x/, "");
    if (cleanHex.length % 2 !== 0) {
        throw new Error("Invalid hex string length");
    }
    const bytes = new Uint8Array(cleanHex.length / 2);
    for (let i = 0; i < cleanHex.length; i += 2) {
        bytes[i / 2] = Number.parseInt(cleanHex.slice(i, i + 2), 16);
    }
    return bytes;
}
function uint8ArrayToHex(bytes) {
    return Array.from(bytes)
        .map((b) => b.toString(16).padStart(2, "0"))
        .join("");
}
// instanceof
class Class {
    constructor(..._args) { }
}
//////////    PROTOTYPE INSTALLERS     //////////
//
// Members live on the prototype and materialize per instance on first read, which keeps own-property count under the step where V8 stops using inline slots. Changing anything here means re-measuring runtime, memory and bundle size together — see "The three axes" in AGENTS.md.
/**
 * Installs a trait's members on its prototype. Each value builds that member for the instance on first read; the built value shadows the accessor as an own property, so a detached `const { parse } = schema` keeps working.
 *
 * Call this from a `proto` initializer, which runs once per prototype — never per instance.
 */
function members(proto, table) {
    for (const key in table) {
        const desc = Object.getOwnPropertyDescriptor(table, key);
        // a getter installs as written, so it stays live: `description` reads through to the registry on every access. not enumerable: an object literal's is, and a prototype member never was
        if (desc.get)
            Object.defineProperty(proto, key, { ...desc, enumerable: false });
        // a method materializes bound on first read, which is what keeps a detached member working: `const opt = schema.optional; opt()`
        else
            defineBound(proto, key, desc.value);
    }
}
/** Shadows a prototype member with an own value, so a getter that builds from the instance runs once. */
function own(inst, key, value, enumerable = true) {
    Object.defineProperty(inst, key, { configurable: true, writable: true, enumerable, value });
    return value;
}
/** Like {@link own}, for a member that was never an own data property and has to stay out of `Object.keys`. */
function hide(inst, key, value) {
    return own(inst, key, value, false);
}
/** Adds members a table derives from the instance: each builds on first read and shadows as own data, and assignment shadows the same way, as when these were own properties. */
function derived(computes, table) {
    for (const key in computes) {
        const compute = computes[key];
        // an object literal's accessor is configurable and enumerable, and `members` copies the descriptor as written
        Object.defineProperty(table, key, {
            configurable: true,
            enumerable: true,
            get() {
                return own(this, key, compute(this));
            },
            set(value) {
                own(this, key, value);
            },
        });
    }
    return table;
}
function defineBound(proto, key, fn) {
    Object.defineProperty(proto, key, {
        configurable: true,
        get() {
            // vitest's spyOn calls a prototype getter bare to find the function it wraps, so a nullish receiver answers the raw method
            return this == null ? fn : own(this, key, fn.bind(this));
        },
        set(value) {
            own(this, key, value);
        },
    });
}
/** Returns the prototype to install on, or `undefined` if this group is already installed on it. */
function claim(inst, sentinel) {
    const proto = Object.getPrototypeOf(inst);
    // Runs on every construction, so `in` rather than the costlier `hasOwnProperty.call`. Sentinels are keys the group itself defines.
    return sentinel in proto ? undefined : proto;
}
// The internals whose init chain is installing. A second call for the same one is a derived constructor overriding its base, so it must not construct another schema in between or the override is dropped.
let installing;
// Set while a getter is running, so a value that resolved through a recursion break is not memoized. One shared descriptor shadows the key for the duration, which costs no per-key allocation.
let broke = false;
const breaker = {
    configurable: true,
    get() {
        broke = true;
        return undefined;
    },
};
/**
 * Installs a lazily-derived internal on the `_zod` prototype of `inst`'s
 * constructor, computed from the internals object itself and cached there on
 * first read. One accessor per constructor rather than one per instance.
 */
function defineLazyInternal(inst, key, compute) {
    const proto = Object.getPrototypeOf(inst._zod);
    if (key in proto && installing !== inst._zod) {
        // A repeat construction: everything is installed already. Cleared here so the reference is not held past the first construction of every type.
        installing = undefined;
        return;
    }
    installing = inst._zod;
    Object.defineProperty(proto, key, {
        configurable: true,
        get() {
            // Shadowed before computing so a re-entrant read from a recursive schema resolves to undefined instead of running the getter again.
            Object.defineProperty(this, key, breaker);
            const outer = broke;
            broke = false;
            try {
                const value = compute(this);
                // A result that resolved through a recursion break is recomputed once the graph is complete; everything else memoizes, undefined included.
                if (broke)
                    delete this[key];
                else
                    Object.defineProperty(this, key, { configurable: true, writable: true, value });
                broke = broke || outer;
                return value;
            }
            catch (err) {
                // A compute that threw memoizes nothing, so a later read runs it again and fails the same way. The shadow goes with it, since leaving it installed would answer undefined for every later read.
                delete this[key];
                broke = broke || outer;
                throw err;
            }
        },
        set(value) {
            Object.defineProperty(this, key, { configurable: true, writable: true, value });
        },
    });
}
/**
 * Installs `key` on `inst`'s prototype, computed by `make` on first read and cached there as an own
 * data property. One accessor per constructor rather than one per instance, because an own accessor
 * puts every instance after the first into v8 dictionary mode. The key doubles as the sentinel.
 */
function installLazyProp(inst, key, make, enumerable) {
    const proto = claim(inst, key);
    if (!proto)
        return;
    Object.defineProperty(proto, key, {
        configurable: true,
        get() {
            // Shadowed before computing, so a re-entrant read from a self-referential shape resolves to undefined instead of running the getter again. A data property rather than an accessor: an own accessor is the dictionary-mode transition this exists to avoid.
            const desc = { configurable: true, writable: true, enumerable, value: undefined };
            Object.defineProperty(this, key, desc);
            // a compute that throws leaves the shadow behind, so later reads answer undefined instead of re-throwing; `defineLazy` did the same, and `defineLazyInternal`'s delete-on-catch would cost bytes in every bundle for a case only a throwing user getter reaches
            desc.value = make(this);
            Object.defineProperty(this, key, desc);
            return desc.value;
        },
        set(value) {
            Object.defineProperty(this, key, { configurable: true, writable: true, enumerable, value });
        },
    });
}
/** Marks the thunk `_catch` synthesises for a constant catch value. `Function.length` cannot tell that thunk from a user callback — rest and defaulted parameters both report arity 0 — and a user callback reads `ctx.error`, whose issues only finalize correctly against the caller's per-parse error map. Provenance can say what arity cannot. A plain string key rather than `Symbol.for`, whose call at module scope no bundler can prove pure — the same shape that anchored `urlCanParse` into every build. */
const CONSTANT_CATCH = "~constantCatch";
/** Wraps a constant catch value in a thunk tagged with {@link CONSTANT_CATCH}. */
function constantCatch(value) {
    const fn = () => value;
    fn[CONSTANT_CATCH] = true;
    return fn;
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/core.js
var _a;

/** A special constant with type `never` */
const NEVER = /*@__PURE__*/ Object.freeze({
    status: "aborted",
});
/* Shared descriptor for installing `_zod`; defineProperty reads it
 * synchronously, so reusing one object avoids a per-instance allocation. */
const _zodDesc = { value: undefined, enumerable: false };
// null where suppressing the capture would be unrecoverable: `parse()` puts the frames back with `captureStackTrace`, so without it the throw would lose its stack. also latched to null once `stackTraceLimit` proves unassignable, which a realm can do at any point by hardening Error
let _E = "captureStackTrace" in Error ? Error : null;
// v8 captures a stack trace inside the Error constructor, which dominates a failed parse; costs only the frames, and parse() restores those. the constructor must RUN: Object.create is cheaper and passes instanceof, but Error.isError and util.types.isNativeError check an internal slot
function newError(Definition) {
    const E = _E;
    if (E) {
        const saved = E.stackTraceLimit;
        if (typeof saved === "number") {
            try {
                E.stackTraceLimit = 0;
            }
            catch {
                _E = null;
                return new Definition();
            }
            try {
                return new Definition();
            }
            finally {
                E.stackTraceLimit = saved;
            }
        }
    }
    return new Definition();
}
function $constructor(name, initializer, 
/** This trait's members, installed once on every prototype that composes it. They cannot be declared in the initializer above: that runs per instance, and the prototype is shared. */
proto, params) {
    // Prototype for this constructor's `_zod` internals. Lazily-derived fields (`values`, `pattern`, `optin`, …) install here once rather than as an accessor on every instance.
    const zodProto = {};
    // Assigning the fields in the constructor body is what gives instances in-object slots; building the object literally and reparenting it costs a second allocation and a generic property copy.
    function Internals(def) {
        this.def = def;
        this.constr = _;
        this.traits = new Set();
    }
    Internals.prototype = zodProto;
    const protoMembers = proto;
    // One trait's members land on every prototype whose chain composes it, so the answer is per prototype rather than per trait.
    const initialized = protoMembers && new WeakSet();
    function init(inst, def) {
        if (!inst._zod) {
            _zodDesc.value = new Internals(def);
            try {
                Object.defineProperty(inst, "_zod", _zodDesc);
            }
            finally {
                // Cleared even on throw, so the shared descriptor never leaks one instance's internals into the next.
                _zodDesc.value = undefined;
            }
        }
        else if (inst._zod.traits.has(name)) {
            return;
        }
        inst._zod.traits.add(name);
        initializer(inst, def);
        if (initialized) {
            // `super(def)` from a user subclass gives `this` a prototype the subclass owns, and installing there would overwrite whatever the subclass declared. `constr` built the instance, so its prototype is the one below the subclass's that should carry the members. A receiver whose chain never reaches that prototype installs on its own, which for a plain object handed straight to `init` means `Object.prototype` — unchanged from before.
            const own = Object.getPrototypeOf(inst);
            const ctorProto = inst._zod.constr.prototype;
            let up = own;
            while (up && up !== ctorProto)
                up = Object.getPrototypeOf(up);
            const target = up ?? own;
            if (!initialized.has(target)) {
                initialized.add(target);
                members(target, protoMembers);
            }
        }
        // support prototype modifications; for-in avoids the array allocation of Object.keys on the (usually empty) prototype
        const proto = _.prototype;
        for (const k in proto) {
            if (!Object.prototype.hasOwnProperty.call(proto, k))
                continue;
            if (!(k in inst)) {
                inst[k] = proto[k].bind(inst);
            }
        }
    }
    // doesn't work if Parent has a constructor with arguments
    const Parent = params?.Parent ?? Object;
    class Definition extends Parent {
    }
    Object.defineProperty(Definition, "name", { value: name });
    function _(def) {
        const inst = params?.Parent ? newError(Definition) : this;
        init(inst, def);
        const deferred = inst._zod.deferred;
        if (deferred) {
            for (const fn of deferred) {
                fn();
            }
            // Released: initializers run once, and the list would otherwise be retained for the schema's lifetime.
            inst._zod.deferred = undefined;
        }
        // Global post-processor hook. Internal: installed by `import "zod/compile"` to enable AOT compilation for every constructed schema. Runs last, once the instance is fully built, because it hands the instance to compile(). The post-processor is expected to be reentrancy-guarded by its own implementation.
        const pp = globalThis.__zod_globalConfig?.postProcessor;
        if (pp)
            pp(inst);
        return inst;
    }
    Object.defineProperty(_, "init", { value: init });
    Object.defineProperty(_, Symbol.hasInstance, {
        value: (inst) => {
            if (params?.Parent && inst instanceof params.Parent)
                return true;
            return inst?._zod?.traits?.has(name);
        },
    });
    Object.defineProperty(_, "name", { value: name });
    return _;
}
//////////////////////////////   UTILITIES   ///////////////////////////////////////
const $brand = /*@__PURE__*/ (/* unused pure expression or super */ null && (Symbol("zod_brand")));
class $ZodAsyncError extends Error {
    constructor() {
        super(`Encountered Promise during synchronous parse. Use .parseAsync() instead.`);
    }
}
class $ZodEncodeError extends Error {
    constructor(name) {
        super(`Encountered unidirectional transform during encode: ${name}`);
        this.name = "ZodEncodeError";
    }
}
(_a = globalThis).__zod_globalConfig ?? (_a.__zod_globalConfig = {});
const core_globalConfig = globalThis.__zod_globalConfig;
function config(newConfig) {
    if (newConfig)
        Object.assign(core_globalConfig, newConfig);
    return core_globalConfig;
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/checks.js
// import { $ZodType } from "./schemas.js";



const $ZodCheck = /*@__PURE__*/ $constructor("$ZodCheck", (inst, def) => {
    var _a;
    inst._zod ?? (inst._zod = {});
    inst._zod.def = def;
    (_a = inst._zod).onattach ?? (_a.onattach = []);
});
/** Default `when` for size-based checks: run only on non-nullish values with a `size`. */
const _whenHasSize = (payload) => {
    const val = payload.value;
    return !util.nullish(val) && val.size !== undefined;
};
/** Default `when` for length-based checks: run only on non-nullish values with a `length`. */
const _whenHasLength = (payload) => {
    const val = payload.value;
    return !nullish(val) && val.length !== undefined;
};
const numericOriginMap = {
    number: "number",
    bigint: "bigint",
    object: "date",
};
const $ZodCheckLessThan = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckLessThan", (inst, def) => {
    $ZodCheck.init(inst, def);
    const origin = numericOriginMap[typeof def.value];
    inst._zod.check = (payload) => {
        if (def.inclusive ? payload.value <= def.value : payload.value < def.value) {
            return;
        }
        payload.issues.push({
            origin: numericOriginMap[typeof payload.value] ?? origin,
            code: "too_big",
            maximum: typeof def.value === "object" ? def.value.getTime() : def.value,
            input: payload.value,
            inclusive: def.inclusive,
            inst,
            continue: !def.abort,
        });
    };
})));
const $ZodCheckGreaterThan = /*@__PURE__*/ $constructor("$ZodCheckGreaterThan", (inst, def) => {
    $ZodCheck.init(inst, def);
    const origin = numericOriginMap[typeof def.value];
    inst._zod.check = (payload) => {
        if (def.inclusive ? payload.value >= def.value : payload.value > def.value) {
            return;
        }
        payload.issues.push({
            origin: numericOriginMap[typeof payload.value] ?? origin,
            code: "too_small",
            minimum: typeof def.value === "object" ? def.value.getTime() : def.value,
            input: payload.value,
            inclusive: def.inclusive,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckMultipleOf = 
/*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckMultipleOf", (inst, def) => {
    $ZodCheck.init(inst, def);
    inst._zod.check = (payload) => {
        if (typeof payload.value !== typeof def.value)
            throw new Error("Cannot mix number and bigint in multiple_of check.");
        const isMultiple = typeof payload.value === "bigint"
            ? // `value % 0n` throws, and nothing is a multiple of zero — the number branch already fails this way via NaN
                def.value !== BigInt(0) && payload.value % def.value === BigInt(0)
            : util.floatSafeRemainder(payload.value, def.value) === 0;
        if (isMultiple)
            return;
        payload.issues.push({
            origin: typeof payload.value,
            code: "not_multiple_of",
            divisor: def.value,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
})));
const $ZodCheckNumberFormat = /*@__PURE__*/ $constructor("$ZodCheckNumberFormat", (inst, def) => {
    $ZodCheck.init(inst, def); // no format checks
    def.format = def.format || "float64";
    const isInt = def.format?.includes("int");
    const origin = isInt ? "int" : "number";
    const [minimum, maximum] = NUMBER_FORMAT_RANGES[def.format];
    inst._zod.check = (payload) => {
        const input = payload.value;
        if (isInt) {
            if (!Number.isInteger(input)) {
                // invalid_format issue
                // payload.issues.push({
                //   expected: def.format,
                //   format: def.format,
                //   code: "invalid_format",
                //   input,
                //   inst,
                // });
                // invalid_type issue
                payload.issues.push({
                    expected: origin,
                    format: def.format,
                    code: "invalid_type",
                    continue: false,
                    input,
                    inst,
                });
                return;
                // not_multiple_of issue
                // payload.issues.push({
                //   code: "not_multiple_of",
                //   origin: "number",
                //   input,
                //   inst,
                //   divisor: 1,
                // });
            }
            if (!Number.isSafeInteger(input)) {
                if (input > 0) {
                    // too_big
                    payload.issues.push({
                        input,
                        code: "too_big",
                        maximum: Number.MAX_SAFE_INTEGER,
                        note: "Integers must be within the safe integer range.",
                        inst,
                        origin,
                        inclusive: true,
                        continue: !def.abort,
                    });
                }
                else {
                    // too_small
                    payload.issues.push({
                        input,
                        code: "too_small",
                        minimum: Number.MIN_SAFE_INTEGER,
                        note: "Integers must be within the safe integer range.",
                        inst,
                        origin,
                        inclusive: true,
                        continue: !def.abort,
                    });
                }
                return;
            }
        }
        if (input < minimum) {
            payload.issues.push({
                origin: "number",
                input,
                code: "too_small",
                minimum,
                inclusive: true,
                inst,
                continue: !def.abort,
            });
        }
        if (input > maximum) {
            payload.issues.push({
                origin: "number",
                input,
                code: "too_big",
                maximum,
                inclusive: true,
                inst,
                continue: !def.abort,
            });
        }
    };
});
const $ZodCheckBigIntFormat = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckBigIntFormat", (inst, def) => {
    $ZodCheck.init(inst, def); // no format checks
    const [minimum, maximum] = util.BIGINT_FORMAT_RANGES[def.format];
    inst._zod.check = (payload) => {
        const input = payload.value;
        if (input < minimum) {
            payload.issues.push({
                origin: "bigint",
                input,
                code: "too_small",
                minimum: minimum,
                inclusive: true,
                inst,
                continue: !def.abort,
            });
        }
        if (input > maximum) {
            payload.issues.push({
                origin: "bigint",
                input,
                code: "too_big",
                maximum,
                inclusive: true,
                inst,
                continue: !def.abort,
            });
        }
    };
})));
const $ZodCheckMaxSize = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckMaxSize", (inst, def) => {
    var _a;
    $ZodCheck.init(inst, def);
    (_a = inst._zod.def).when ?? (_a.when = _whenHasSize);
    inst._zod.check = (payload) => {
        const input = payload.value;
        const size = input.size;
        if (size <= def.maximum)
            return;
        payload.issues.push({
            origin: util.getSizableOrigin(input),
            code: "too_big",
            maximum: def.maximum,
            inclusive: true,
            input,
            inst,
            continue: !def.abort,
        });
    };
})));
const $ZodCheckMinSize = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckMinSize", (inst, def) => {
    var _a;
    $ZodCheck.init(inst, def);
    (_a = inst._zod.def).when ?? (_a.when = _whenHasSize);
    inst._zod.check = (payload) => {
        const input = payload.value;
        const size = input.size;
        if (size >= def.minimum)
            return;
        payload.issues.push({
            origin: util.getSizableOrigin(input),
            code: "too_small",
            minimum: def.minimum,
            inclusive: true,
            input,
            inst,
            continue: !def.abort,
        });
    };
})));
const $ZodCheckSizeEquals = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckSizeEquals", (inst, def) => {
    var _a;
    $ZodCheck.init(inst, def);
    (_a = inst._zod.def).when ?? (_a.when = _whenHasSize);
    inst._zod.check = (payload) => {
        const input = payload.value;
        const size = input.size;
        if (size === def.size)
            return;
        const tooBig = size > def.size;
        payload.issues.push({
            origin: util.getSizableOrigin(input),
            ...(tooBig ? { code: "too_big", maximum: def.size } : { code: "too_small", minimum: def.size }),
            inclusive: true,
            exact: true,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
})));
const $ZodCheckMaxLength = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckMaxLength", (inst, def) => {
    var _a;
    $ZodCheck.init(inst, def);
    (_a = inst._zod.def).when ?? (_a.when = _whenHasLength);
    inst._zod.check = (payload) => {
        const input = payload.value;
        const units = input.length;
        // Strings are measured in Unicode code points, not UTF-16 units. A code point is at most two units, so a string that already fits in units fits in code points; only an overflow has to be counted.
        const length = typeof input === "string" && units > def.maximum ? util.codePointLength(input) : units;
        if (length <= def.maximum)
            return;
        const origin = util.getLengthableOrigin(input);
        payload.issues.push({
            origin,
            code: "too_big",
            maximum: def.maximum,
            inclusive: true,
            input,
            inst,
            continue: !def.abort,
        });
    };
})));
const $ZodCheckMinLength = /*@__PURE__*/ $constructor("$ZodCheckMinLength", (inst, def) => {
    var _a;
    $ZodCheck.init(inst, def);
    (_a = inst._zod.def).when ?? (_a.when = _whenHasLength);
    inst._zod.check = (payload) => {
        const input = payload.value;
        const units = input.length;
        // A code point is one or two UTF-16 units, so fewer units than the floor can never reach it and twice the floor always clears it. Only in between is the exact count in doubt.
        const length = typeof input === "string" && units >= def.minimum && units < def.minimum * 2
            ? codePointLength(input)
            : units;
        if (length >= def.minimum)
            return;
        const origin = getLengthableOrigin(input);
        payload.issues.push({
            origin,
            code: "too_small",
            minimum: def.minimum,
            inclusive: true,
            input,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckLengthEquals = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckLengthEquals", (inst, def) => {
    var _a;
    $ZodCheck.init(inst, def);
    (_a = inst._zod.def).when ?? (_a.when = _whenHasLength);
    inst._zod.check = (payload) => {
        const input = payload.value;
        const units = input.length;
        // A code point is one or two UTF-16 units, so outside `[length, length * 2]` units the target is missed either way — and missed in the same direction in both measures.
        const length = typeof input === "string" && units >= def.length && units <= def.length * 2
            ? util.codePointLength(input)
            : units;
        if (length === def.length)
            return;
        const origin = util.getLengthableOrigin(input);
        const tooBig = length > def.length;
        payload.issues.push({
            origin,
            ...(tooBig ? { code: "too_big", maximum: def.length } : { code: "too_small", minimum: def.length }),
            inclusive: true,
            exact: true,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
})));
const $ZodCheckStringFormat = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckStringFormat", (inst, def) => {
    var _a, _b;
    $ZodCheck.init(inst, def);
    if (def.pattern)
        (_a = inst._zod).check ?? (_a.check = (payload) => {
            def.pattern.lastIndex = 0;
            if (def.pattern.test(payload.value))
                return;
            payload.issues.push({
                origin: "string",
                code: "invalid_format",
                format: def.format,
                input: payload.value,
                ...(def.pattern ? { pattern: def.pattern.toString() } : {}),
                inst,
                continue: !def.abort,
            });
        });
    else
        (_b = inst._zod).check ?? (_b.check = () => { });
})));
const $ZodCheckRegex = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckRegex", (inst, def) => {
    $ZodCheckStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        def.pattern.lastIndex = 0;
        if (def.pattern.test(payload.value))
            return;
        payload.issues.push({
            origin: "string",
            code: "invalid_format",
            format: "regex",
            input: payload.value,
            pattern: def.pattern.toString(),
            inst,
            continue: !def.abort,
        });
    };
})));
const $ZodCheckLowerCase = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckLowerCase", (inst, def) => {
    def.pattern ?? (def.pattern = regexes.lowercase);
    $ZodCheckStringFormat.init(inst, def);
})));
const $ZodCheckUpperCase = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckUpperCase", (inst, def) => {
    def.pattern ?? (def.pattern = regexes.uppercase);
    $ZodCheckStringFormat.init(inst, def);
})));
const $ZodCheckIncludes = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckIncludes", (inst, def) => {
    $ZodCheck.init(inst, def);
    const escapedRegex = util.escapeRegex(def.includes);
    // `String.prototype.includes(sub, position)` matches `sub` at `position`
    // OR LATER, so the pattern must allow at least `position` leading chars
    // (`{N,}`), not exactly `position` chars (`{N}`).
    const pattern = new RegExp(typeof def.position === "number" ? `^.{${def.position},}${escapedRegex}` : escapedRegex);
    def.pattern = pattern;
    inst._zod.check = (payload) => {
        if (payload.value.includes(def.includes, def.position))
            return;
        payload.issues.push({
            origin: "string",
            code: "invalid_format",
            format: "includes",
            includes: def.includes,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
})));
const $ZodCheckStartsWith = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckStartsWith", (inst, def) => {
    $ZodCheck.init(inst, def);
    const pattern = new RegExp(`^${util.escapeRegex(def.prefix)}.*`);
    def.pattern ?? (def.pattern = pattern);
    inst._zod.check = (payload) => {
        if (payload.value.startsWith(def.prefix))
            return;
        payload.issues.push({
            origin: "string",
            code: "invalid_format",
            format: "starts_with",
            prefix: def.prefix,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
})));
const $ZodCheckEndsWith = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckEndsWith", (inst, def) => {
    $ZodCheck.init(inst, def);
    const pattern = new RegExp(`.*${util.escapeRegex(def.suffix)}$`);
    def.pattern ?? (def.pattern = pattern);
    inst._zod.check = (payload) => {
        if (payload.value.endsWith(def.suffix))
            return;
        payload.issues.push({
            origin: "string",
            code: "invalid_format",
            format: "ends_with",
            suffix: def.suffix,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
})));
///////////////////////////////////
/////    $ZodCheckProperty    /////
///////////////////////////////////
function handleCheckPropertyResult(result, payload, property) {
    if (result.issues.length) {
        payload.issues.push(...util.prefixIssues(property, result.issues));
    }
}
const $ZodCheckProperty = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckProperty", (inst, def) => {
    $ZodCheck.init(inst, def);
    inst._zod.check = (payload) => {
        const result = def.schema._zod.run({
            value: payload.value[def.property],
            issues: [],
        }, {});
        if (result instanceof Promise) {
            return result.then((result) => handleCheckPropertyResult(result, payload, def.property));
        }
        handleCheckPropertyResult(result, payload, def.property);
        return;
    };
})));
const $ZodCheckProperties = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckProperties", (inst, def) => {
    $ZodCheck.init(inst, def);
    util.hide(inst, Symbol.iterator, function* () {
        yield inst;
    });
    // key and schema snapshotted together: reading one live and the other cached lets a later mutation of the caller's shape object pair a stale key with a missing schema
    let entries;
    inst._zod.check = (payload) => {
        // the base schema already typed the value, so only a nullish one is rejected here: the properties read on a primitive too, matching z.property() on a string's length
        if (payload.value == null) {
            payload.issues.push({ expected: "object", code: "invalid_type", input: payload.value, inst });
            return undefined;
        }
        entries ?? (entries = Reflect.ownKeys(def.shape).map((key) => [key, def.shape[key]]));
        const input = payload.value;
        let proms;
        for (const [key, schema] of entries) {
            const result = schema._zod.run({ value: input[key], issues: [] }, {});
            if (result instanceof Promise) {
                proms ?? (proms = []);
                proms.push(result.then((result) => handleCheckPropertyResult(result, payload, key)));
            }
            else {
                handleCheckPropertyResult(result, payload, key);
            }
        }
        if (proms)
            return Promise.all(proms).then(() => undefined);
        return undefined;
    };
})));
const $ZodCheckMimeType = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckMimeType", (inst, def) => {
    $ZodCheck.init(inst, def);
    const mimeSet = new Set(def.mime);
    inst._zod.check = (payload) => {
        if (mimeSet.has(payload.value.type))
            return;
        payload.issues.push({
            code: "invalid_value",
            values: def.mime,
            input: payload.value.type,
            inst,
            continue: !def.abort,
        });
    };
})));
const $ZodCheckOverwrite = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCheckOverwrite", (inst, def) => {
    $ZodCheck.init(inst, def);
    inst._zod.check = (payload) => {
        payload.value = def.tx(payload.value);
    };
})));

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/regexes.js

/**
 * @deprecated CUID v1 is deprecated by its authors due to information leakage
 * (timestamps embedded in the id). Use {@link cuid2} instead.
 * See https://github.com/paralleldrive/cuid.
 */
const cuid = /^[cC][0-9a-z]{6,}$/;
const cuid2 = /^[0-9a-z]+$/;
const ulid = /^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{25}$/;
const xid = /^[0-9a-vA-V]{20}$/;
const ksuid = /^[A-Za-z0-9]{27}$/;
const nanoid = /^[a-zA-Z0-9_-]{21}$/;
function nanoidOfLength(length) {
    return new RegExp(`^[a-zA-Z0-9_-]{${length}}$`);
}
/** ISO 8601-1 duration regex. Does not support the 8601-2 extensions like negative durations or fractional/negative components. */
const duration = /^P(?:(\d+W)|(?!.*W)(?=\d|T\d)(\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+([.,]\d+)?S)?)?)$/;
/** Implements ISO 8601-2 extensions like explicit +- prefixes, mixing weeks with other units, and fractional/negative components. */
const extendedDuration = /^[-+]?P(?!$)(?:(?:[-+]?\d+Y)|(?:[-+]?\d+[.,]\d+Y$))?(?:(?:[-+]?\d+M)|(?:[-+]?\d+[.,]\d+M$))?(?:(?:[-+]?\d+W)|(?:[-+]?\d+[.,]\d+W$))?(?:(?:[-+]?\d+D)|(?:[-+]?\d+[.,]\d+D$))?(?:T(?=[\d+-])(?:(?:[-+]?\d+H)|(?:[-+]?\d+[.,]\d+H$))?(?:(?:[-+]?\d+M)|(?:[-+]?\d+[.,]\d+M$))?(?:[-+]?\d+(?:[.,]\d+)?S)?)??$/;
/** A regex for any UUID-like identifier: 8-4-4-4-12 hex pattern */
const guid = /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;
/** Returns a regex for validating an RFC 9562/4122 UUID.
 *
 * @param version Optionally specify a version 1-8. If no version is specified, all versions are supported. */
const uuid = (version) => {
    if (!version)
        return /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;
    return new RegExp(`^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-${version}[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12})$`);
};
const uuid4 = /*@__PURE__*/ (/* unused pure expression or super */ null && (uuid(4)));
const uuid6 = /*@__PURE__*/ (/* unused pure expression or super */ null && (uuid(6)));
const uuid7 = /*@__PURE__*/ (/* unused pure expression or super */ null && (uuid(7)));
/** Practical email validation */
const email = /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;
/** Equivalent to the HTML5 input[type=email] validation implemented by browsers. Source: https://developer.mozilla.org/en-US/docs/Web/HTML/Element/input/email */
const html5Email = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
/** The classic emailregex.com regex for RFC 5322-compliant emails */
const rfc5322Email = /^(([^<>()\[\]\\.,;:\s@"]+(\.[^<>()\[\]\\.,;:\s@"]+)*)|(".+"))@((\[[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}])|(([a-zA-Z\-0-9]+\.)+[a-zA-Z]{2,}))$/;
/** A loose regex that allows Unicode characters, enforces length limits, and that's about it. */
const unicodeEmail = /^[^\s@"]{1,64}@[^\s@]{1,255}$/u;
const idnEmail = (/* unused pure expression or super */ null && (unicodeEmail));
const browserEmail = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
// from https://thekevinscott.com/emojis-in-javascript/#writing-a-regular-expression
// Single character class, not an alternation: the two properties overlap (U+1F9B0-U+1F9B3), so `(A|B)+` backtracks exponentially on a failed match. The leading lookahead then demands one anchor — a pictograph, a regional indicator, or the enclosing keycap — because `\p{Emoji_Component}` on its own covers ASCII digits, `#`, `*`, ZWJ, variation selectors and skin tone modifiers, none of which is an emoji without a base.
const _emoji = (/* unused pure expression or super */ null && (`^(?=[\\s\\S]*[\\p{Extended_Pictographic}\\p{Regional_Indicator}\\u20E3])[\\p{Extended_Pictographic}\\p{Emoji_Component}]+$`));
function emoji() {
    return new RegExp(_emoji, "u");
}
const ipv4 = /^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])$/;
const ipv6 = /^(([0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,7}:|([0-9a-fA-F]{1,4}:){1,6}:[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,5}(:[0-9a-fA-F]{1,4}){1,2}|([0-9a-fA-F]{1,4}:){1,4}(:[0-9a-fA-F]{1,4}){1,3}|([0-9a-fA-F]{1,4}:){1,3}(:[0-9a-fA-F]{1,4}){1,4}|([0-9a-fA-F]{1,4}:){1,2}(:[0-9a-fA-F]{1,4}){1,5}|[0-9a-fA-F]{1,4}:((:[0-9a-fA-F]{1,4}){1,6})|:((:[0-9a-fA-F]{1,4}){1,7}|:))$/;
const mac = (delimiter) => {
    const escapedDelim = util.escapeRegex(delimiter ?? ":");
    return new RegExp(`^(?:[0-9A-F]{2}${escapedDelim}){5}[0-9A-F]{2}$|^(?:[0-9a-f]{2}${escapedDelim}){5}[0-9a-f]{2}$`);
};
const cidrv4 = /^((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\.){3}(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\/([0-9]|[1-2][0-9]|3[0-2])$/;
const cidrv6 = /^(([0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,7}:|([0-9a-fA-F]{1,4}:){1,6}:[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,5}(:[0-9a-fA-F]{1,4}){1,2}|([0-9a-fA-F]{1,4}:){1,4}(:[0-9a-fA-F]{1,4}){1,3}|([0-9a-fA-F]{1,4}:){1,3}(:[0-9a-fA-F]{1,4}){1,4}|([0-9a-fA-F]{1,4}:){1,2}(:[0-9a-fA-F]{1,4}){1,5}|[0-9a-fA-F]{1,4}:((:[0-9a-fA-F]{1,4}){1,6})|:((:[0-9a-fA-F]{1,4}){1,7}|:))\/(12[0-8]|1[01][0-9]|[1-9]?[0-9])$/;
// https://stackoverflow.com/questions/7860392/determine-if-string-is-in-base64-using-javascript
const base64 = /^$|^(?:[0-9a-zA-Z+/]{4})*(?:(?:[0-9a-zA-Z+/]{2}==)|(?:[0-9a-zA-Z+/]{3}=))?$/;
const base64url = /^(?:[A-Za-z0-9_-]{4})*(?:[A-Za-z0-9_-]{2,3})?$/;
// based on https://stackoverflow.com/questions/106179/regular-expression-to-match-dns-hostname-or-ip-address
// export const hostname: RegExp = /^([a-zA-Z0-9-]+\.)*[a-zA-Z0-9-]+$/;
const hostname = /^(?=.{1,253}\.?$)[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[-0-9a-zA-Z]{0,61}[0-9a-zA-Z])?)*\.?$/;
const domain = /^(?=.{1,253}$)([a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,63}$/;
const httpProtocol = /^https?$/;
// https://blog.stevenlevithan.com/archives/validate-phone-number#r4-3 (regex sans spaces) E.164: leading digit must be 1-9; total digits (excluding '+') between 7-15
const e164 = /^\+[1-9]\d{6,14}$/;
// Credit card shape: 12–19 digits, optionally separated by single spaces or single hyphens. ISO/IEC 7812 caps the PAN at 19 digits; 12 is the shortest issued length (Maestro).
const creditCard = /^\d(?:[ -]?\d){11,18}$/;
// ISO 4217 alpha codes from the SIX list, regenerated by scripts/update-iso-4217.ts
const currencyCode = /^(?:AED|AFN|ALL|AMD|AOA|ARS|AUD|AWG|AZN|BAM|BBD|BDT|BHD|BIF|BMD|BND|BOB|BOV|BRL|BSD|BTN|BWP|BYN|BZD|CAD|CDF|CHE|CHF|CHW|CLF|CLP|CNY|COP|COU|CRC|CUP|CVE|CZK|DJF|DKK|DOP|DZD|EGP|ERN|ETB|EUR|FJD|FKP|GBP|GEL|GHS|GIP|GMD|GNF|GTQ|GYD|HKD|HNL|HTG|HUF|IDR|ILS|INR|IQD|IRR|ISK|JMD|JOD|JPY|KES|KGS|KHR|KMF|KPW|KRW|KWD|KYD|KZT|LAK|LBP|LKR|LRD|LSL|LYD|MAD|MDL|MGA|MKD|MMK|MNT|MOP|MRU|MUR|MVR|MWK|MXN|MXV|MYR|MZN|NAD|NGN|NIO|NOK|NPR|NZD|OMR|PAB|PEN|PGK|PHP|PKR|PLN|PYG|QAR|RON|RSD|RUB|RWF|SAR|SBD|SCR|SDG|SEK|SGD|SHP|SLE|SOS|SRD|SSP|STN|SVC|SYP|SZL|THB|TJS|TMT|TND|TOP|TRY|TTD|TWD|TZS|UAH|UGX|USD|USN|UYI|UYU|UYW|UZS|VED|VES|VND|VUV|WST|XAD|XAF|XAG|XAU|XBA|XBB|XBC|XBD|XCD|XCG|XDR|XOF|XPD|XPF|XPT|XSU|XTS|XUA|XXX|YER|ZAR|ZMW|ZWG)$/;
// iban electronic format: 2-letter country, check digits 02-98 (the only values `98 - remainder` can produce), 11-30 bban characters
const iban = /^[A-Z]{2}(?!00|01|99)\d{2}[A-Z0-9]{11,30}$/;
const dateSource = (/* unused pure expression or super */ null && (`(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))`));
/** Anchors a pattern source. The interpolation lives here rather than at the call site because
 * esbuild will not drop a `@__PURE__` call whose own argument interpolates a variable, but it
 * will drop `anchor(dateSource)`. Keeping it inline pinned `date` into every bundle. */
function regexes_anchor(source) {
    return new RegExp(`^${source}$`);
}
const date = /*@__PURE__*/ (/* unused pure expression or super */ null && (regexes_anchor(dateSource)));
function timeSource(args) {
    const hhmm = `(?:[01]\\d|2[0-3]):[0-5]\\d`;
    const regex = typeof args.precision === "number"
        ? args.precision === -1
            ? `${hhmm}`
            : args.precision === 0
                ? `${hhmm}:[0-5]\\d`
                : `${hhmm}:[0-5]\\d\\.\\d{${args.precision}}`
        : args.seconds
            ? `${hhmm}:[0-5]\\d(?:\\.\\d+)?`
            : `${hhmm}(?::[0-5]\\d(?:\\.\\d+)?)?`;
    return regex;
}
function time(args) {
    return new RegExp(`^${timeSource(args)}$`);
}
// Adapted from https://stackoverflow.com/a/3143231
function datetime(args) {
    const opts = ["Z"];
    // if (args.offset) opts.push(`([+-]\\d{2}:\\d{2})`);
    if (args.offset)
        opts.push(`([+-](?:[01]\\d|2[0-3]):[0-5]\\d)`);
    // RFC 3339 mandates seconds wherever the time carries a `Z` or an offset, so only the unqualified form `local` adds may omit them
    const qualified = `${timeSource({ precision: args.precision, seconds: true })}(?:${opts.join("|")})`;
    const timeRegex = args.local ? `${qualified}|${timeSource({ precision: args.precision })}` : qualified;
    return new RegExp(`^${dateSource}T(?:${timeRegex})$`);
}
// the unbounded form of `string()` as a literal, so every plain string shares one instance instead of building its own
const anyString = /^[\s\S]{0,}$/;
const string = (params) => {
    const regex = params ? `[\\s\\S]{${params?.minimum ?? 0},${params?.maximum ?? ""}}` : `[\\s\\S]*`;
    return new RegExp(`^${regex}$`);
};
const bigint = /^-?\d+n?$/;
const integer = /^-?\d+$/;
const number = /^-?\d+(?:\.\d+)?$/;
const regexes_boolean = /^(?:true|false)$/i;
const _null = /^null$/i;

const _undefined = /^undefined$/i;

// regex for string with no uppercase letters
const lowercase = /^[^A-Z]*$/;
// regex for string with no lowercase letters
const uppercase = /^[^a-z]*$/;
// regex for hexadecimal strings (any length)
const hex = /^[0-9a-fA-F]*$/;
// Hash regexes for different algorithms and encodings
// Helper function to create base64 regex with exact length and padding
function fixedBase64(bodyLength, padding) {
    return new RegExp(`^[A-Za-z0-9+/]{${bodyLength}}${padding}$`);
}
// Helper function to create base64url regex with exact length (no padding)
function fixedBase64url(length) {
    return new RegExp(`^[A-Za-z0-9_-]{${length}}$`);
}
// MD5 (16 bytes): base64 = 24 chars total (22 + "==")
const md5_hex = /^[0-9a-fA-F]{32}$/;
const md5_base64 = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64(22, "==")));
const md5_base64url = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64url(22)));
// SHA1 (20 bytes): base64 = 28 chars total (27 + "=")
const sha1_hex = /^[0-9a-fA-F]{40}$/;
const sha1_base64 = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64(27, "=")));
const sha1_base64url = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64url(27)));
// SHA256 (32 bytes): base64 = 44 chars total (43 + "=")
const sha256_hex = /^[0-9a-fA-F]{64}$/;
const sha256_base64 = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64(43, "=")));
const sha256_base64url = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64url(43)));
// SHA384 (48 bytes): base64 = 64 chars total (no padding)
const sha384_hex = /^[0-9a-fA-F]{96}$/;
const sha384_base64 = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64(64, "")));
const sha384_base64url = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64url(64)));
// SHA512 (64 bytes): base64 = 88 chars total (86 + "==")
const sha512_hex = /^[0-9a-fA-F]{128}$/;
const sha512_base64 = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64(86, "==")));
const sha512_base64url = /*@__PURE__*/ (/* unused pure expression or super */ null && (fixedBase64url(86)));

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/versions.js
const version = {
    major: 4,
    minor: 6,
    patch: 7,
};

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/schemas.js







const $ZodType = /*@__PURE__*/ $constructor("$ZodType", (inst, def) => {
    var _a;
    inst ?? (inst = {});
    inst._zod.def = def; // set _def property
    inst._zod.bag = inst._zod.bag || {}; // initialize _bag object
    inst._zod.version = version;
    const defChecks = inst._zod.def.checks;
    // if inst is itself a checks.$ZodCheck, run it as a check
    const checks = inst._zod.traits.has("$ZodCheck")
        ? [inst, ...(defChecks ?? [])]
        : defChecks?.length
            ? [...defChecks]
            : [];
    for (const ch of checks) {
        for (const fn of ch._zod.onattach) {
            fn(inst);
        }
    }
    if (checks.length === 0) {
        // deferred initializer inst._zod.parse is not yet defined
        (_a = inst._zod).deferred ?? (_a.deferred = []);
        inst._zod.deferred?.push(() => {
            inst._zod.run = inst._zod.parse;
        });
    }
    else {
        const runChecks = (payload, checks, ctx) => {
            if (payload.memo)
                return payload;
            let isAborted = aborted(payload);
            let asyncResult;
            for (const ch of checks) {
                if (ch._zod.def.when) {
                    if (explicitlyAborted(payload))
                        continue;
                    const shouldRun = ch._zod.def.when(payload);
                    if (!shouldRun)
                        continue;
                }
                else if (isAborted) {
                    continue;
                }
                const currLen = payload.issues.length;
                const _ = ch._zod.check(payload);
                if (_ instanceof Promise && ctx?.async === false) {
                    throw new $ZodAsyncError();
                }
                if (asyncResult || _ instanceof Promise) {
                    asyncResult = (asyncResult ?? Promise.resolve()).then(async () => {
                        await _;
                        const nextLen = payload.issues.length;
                        if (nextLen === currLen)
                            return;
                        attachSchema(payload.issues, currLen, inst);
                        if (!isAborted)
                            isAborted = aborted(payload, currLen);
                    });
                }
                else {
                    const nextLen = payload.issues.length;
                    if (nextLen === currLen)
                        continue;
                    attachSchema(payload.issues, currLen, inst);
                    if (!isAborted)
                        isAborted = aborted(payload, currLen);
                }
            }
            if (asyncResult) {
                return asyncResult.then(() => {
                    return payload;
                });
            }
            return payload;
        };
        const handleCanaryResult = (canary, payload, ctx) => {
            // abort if the canary is aborted
            if (aborted(canary)) {
                canary.aborted = true;
                return canary;
            }
            // run checks first, then
            const checkResult = runChecks(payload, checks, ctx);
            if (checkResult instanceof Promise) {
                if (ctx.async === false)
                    throw new $ZodAsyncError();
                return checkResult.then((checkResult) => inst._zod.parse(checkResult, ctx));
            }
            return inst._zod.parse(checkResult, ctx);
        };
        inst._zod.run = (payload, ctx) => {
            if (ctx.skipChecks) {
                return inst._zod.parse(payload, ctx);
            }
            if (ctx.direction === "backward") {
                // run canary initial pass (no checks)
                const canary = inst._zod.parse({ value: payload.value, issues: [] }, { ...ctx, skipChecks: true });
                if (canary instanceof Promise) {
                    return canary.then((canary) => {
                        return handleCanaryResult(canary, payload, ctx);
                    });
                }
                return handleCanaryResult(canary, payload, ctx);
            }
            // forward
            const result = inst._zod.parse(payload, ctx);
            if (result instanceof Promise) {
                if (ctx.async === false)
                    throw new $ZodAsyncError();
                return result.then((result) => runChecks(result, checks, ctx));
            }
            return runChecks(result, checks, ctx);
        };
    }
}, {
    // Wrappers extend this by installing a richer factory over it; reading it eagerly would defeat the laziness.
    get "~standard"() {
        return hide(this, "~standard", standardProps(this));
    },
    set "~standard"(value) {
        own(this, "~standard", value);
    },
});
/** The Standard Schema surface for `inst`. Shared so wrappers can extend it without forcing it. */
// a Standard Schema result only reports issues, so a failure finalizes them straight off the raw payload: no ZodError, and no lazy result to read through
const toStandardResult = (r, ctx) => r.issues.length ? { issues: r.issues.map((iss) => finalizeIssue(iss, ctx, config())) } : { value: r.value };
async function validateAsync(inst, value) {
    const ctx = { async: true };
    return toStandardResult((await inst._zod.run({ value, issues: [] }, ctx)), ctx);
}
function standardProps(inst) {
    return {
        validate: (value) => {
            const ctx = { async: false };
            try {
                const r = inst._zod.run({ value, issues: [] }, ctx);
                if (!(r instanceof Promise))
                    return toStandardResult(r, ctx);
            }
            catch (_) { }
            // async function so a synchronously throwing check rejects instead of escaping validate
            return validateAsync(inst, value);
        },
        vendor: "zod",
        version: 1,
    };
}

const $ZodString = /*@__PURE__*/ $constructor("$ZodString", (inst, def) => {
    $ZodType.init(inst, def);
    // a format's own pattern, else unbounded; a template literal derives the check-aware form itself
    inst._zod.pattern = def.pattern ?? anyString;
    inst._zod.parse = (payload, _) => {
        if (def.coerce)
            try {
                payload.value = String(payload.value);
            }
            catch (_) { }
        if (typeof payload.value === "string")
            return payload;
        payload.issues.push({
            expected: "string",
            code: "invalid_type",
            input: payload.value,
            inst,
        });
        return payload;
    };
});
const $ZodStringFormat = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodStringFormat", (inst, def) => {
    // check initialization must come first
    checks.$ZodCheckStringFormat.init(inst, def);
    $ZodString.init(inst, def);
})));
const $ZodGUID = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodGUID", (inst, def) => {
    def.pattern ?? (def.pattern = regexes.guid);
    $ZodStringFormat.init(inst, def);
})));
const $ZodUUID = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodUUID", (inst, def) => {
    if (def.version) {
        const versionMap = {
            v1: 1,
            v2: 2,
            v3: 3,
            v4: 4,
            v5: 5,
            v6: 6,
            v7: 7,
            v8: 8,
        };
        const v = versionMap[def.version];
        if (v === undefined)
            throw new Error(`Invalid UUID version: "${def.version}"`);
        def.pattern ?? (def.pattern = regexes.uuid(v));
    }
    else
        def.pattern ?? (def.pattern = regexes.uuid());
    $ZodStringFormat.init(inst, def);
})));
const $ZodEmail = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodEmail", (inst, def) => {
    def.pattern ?? (def.pattern = regexes.email);
    $ZodStringFormat.init(inst, def);
})));
/** The `://` guard rejected the input before the URL constructor saw it. */
const URL_BAD_FORMAT = 1;
/** The URL parser rejected the input. */
const URL_UNPARSEABLE = 2;
function canParseURL(input) {
    try {
        if (typeof URL !== "undefined" && typeof URL.canParse === "function")
            return URL.canParse(input);
        new URL(input);
        return true;
    }
    catch {
        return false;
    }
}
function validateURL(trimmed, def) {
    if (!("normalize" in def) && !("hostname" in def) && !("protocol" in def)) {
        return canParseURL(trimmed) || URL_UNPARSEABLE;
    }
    return parseURLObject(trimmed, def);
}
/** Parses a URL while preserving the non-normalizing HTTP guard. */
function parseURLObject(trimmed, def) {
    // When normalize is off, require :// for http/https URLs. This prevents strings like "http:example.com" or "https:/path" from being silently accepted
    if (!def.normalize && def.protocol?.source === regexes.httpProtocol.source && !/^https?:\/\//i.test(trimmed)) {
        return URL_BAD_FORMAT;
    }
    try {
        if (typeof URL !== "undefined") {
            const URLStatic = URL;
            if (typeof URLStatic.parse === "function")
                return URLStatic.parse(trimmed) ?? URL_UNPARSEABLE;
        }
        // @ts-ignore
        return new URL(trimmed);
    }
    catch {
        return URL_UNPARSEABLE;
    }
}
const asciiTabOrNewline = /[\t\n\r]/g;
/** The URL parser deletes every ASCII tab, LF and CR from its input before it parses, so `new URL("https://exa\nmple.com")` reports on `example.com`. Applying the same deletion to the returned value closes the half of that divergence which can move the host; the parser's other rewrite, stripping C0 controls at the edges, cannot. */
function stripTabAndNewline(value) {
    return value.replace(asciiTabOrNewline, "");
}
function urlHostnameOk(url, hostname) {
    hostname.lastIndex = 0;
    return hostname.test(url.hostname);
}
function urlProtocolOk(url, protocol) {
    protocol.lastIndex = 0;
    return protocol.test(url.protocol.endsWith(":") ? url.protocol.slice(0, -1) : url.protocol);
}
const $ZodURL = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodURL", (inst, def) => {
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        try {
            // Trim whitespace from input
            const trimmed = payload.value.trim();
            const url = validateURL(trimmed, def);
            if (url === URL_BAD_FORMAT) {
                payload.issues.push({
                    code: "invalid_format",
                    format: "url",
                    note: "Invalid URL format",
                    input: payload.value,
                    inst,
                    continue: !def.abort,
                });
                return;
            }
            if (url === URL_UNPARSEABLE) {
                payload.issues.push({
                    code: "invalid_format",
                    format: "url",
                    input: payload.value,
                    inst,
                    continue: !def.abort,
                });
                return;
            }
            if (url === true) {
                payload.value = stripTabAndNewline(trimmed);
                return;
            }
            if (def.hostname && !urlHostnameOk(url, def.hostname)) {
                payload.issues.push({
                    code: "invalid_format",
                    format: "url",
                    note: "Invalid hostname",
                    pattern: def.hostname.source,
                    input: payload.value,
                    inst,
                    continue: !def.abort,
                });
            }
            if (def.protocol && !urlProtocolOk(url, def.protocol)) {
                payload.issues.push({
                    code: "invalid_format",
                    format: "url",
                    note: "Invalid protocol",
                    pattern: def.protocol.source,
                    input: payload.value,
                    inst,
                    continue: !def.abort,
                });
            }
            // Set the output value based on normalize flag
            payload.value = def.normalize ? url.href : stripTabAndNewline(trimmed);
            return;
        }
        catch (_) {
            payload.issues.push({
                code: "invalid_format",
                format: "url",
                input: payload.value,
                inst,
                continue: !def.abort,
            });
        }
    };
})));
const $ZodEmoji = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodEmoji", (inst, def) => {
    def.pattern ?? (def.pattern = regexes.emoji());
    $ZodStringFormat.init(inst, def);
})));
const $ZodNanoID = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodNanoID", (inst, def) => {
    if (def.length !== undefined && (!Number.isInteger(def.length) || def.length < 1))
        throw new Error(`Invalid nanoid length: ${def.length}`);
    def.pattern ?? (def.pattern = def.length === undefined ? regexes.nanoid : regexes.nanoidOfLength(def.length));
    $ZodStringFormat.init(inst, def);
})));
/**
 * @deprecated CUID v1 is deprecated by its authors due to information leakage
 * (timestamps embedded in the id). Use {@link $ZodCUID2} instead.
 * See https://github.com/paralleldrive/cuid.
 */
const $ZodCUID = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCUID", (inst, def) => {
    def.pattern ?? (def.pattern = regexes.cuid);
    $ZodStringFormat.init(inst, def);
})));
const $ZodCUID2 = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCUID2", (inst, def) => {
    def.pattern ?? (def.pattern = regexes.cuid2);
    $ZodStringFormat.init(inst, def);
})));
const $ZodULID = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodULID", (inst, def) => {
    def.pattern ?? (def.pattern = regexes.ulid);
    $ZodStringFormat.init(inst, def);
})));
const $ZodXID = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodXID", (inst, def) => {
    def.pattern ?? (def.pattern = regexes.xid);
    $ZodStringFormat.init(inst, def);
})));
const $ZodKSUID = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodKSUID", (inst, def) => {
    def.pattern ?? (def.pattern = regexes.ksuid);
    $ZodStringFormat.init(inst, def);
})));
const $ZodISODateTime = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodISODateTime", (inst, def) => {
    def.pattern ?? (def.pattern = regexes.datetime(def));
    $ZodStringFormat.init(inst, def);
})));
const $ZodISODate = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodISODate", (inst, def) => {
    def.pattern ?? (def.pattern = regexes.date);
    $ZodStringFormat.init(inst, def);
})));
const $ZodISOTime = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodISOTime", (inst, def) => {
    def.pattern ?? (def.pattern = regexes.time(def));
    $ZodStringFormat.init(inst, def);
})));
const $ZodISODuration = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodISODuration", (inst, def) => {
    def.pattern ?? (def.pattern = regexes.duration);
    $ZodStringFormat.init(inst, def);
})));
const $ZodIPv4 = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodIPv4", (inst, def) => {
    def.pattern ?? (def.pattern = regexes.ipv4);
    $ZodStringFormat.init(inst, def);
})));
/** An IPv6 address is written with hex digits, colons and dots, and nothing else. The guard is what makes the check below an IPv6 check: `new URL("http://[...]")` parses an authority, not an address, so `@` and `\` re-delimit it and `"::@1\\"` validates against the host `0.0.0.1`. The URL parser also deletes ASCII tab, LF and CR rather than failing, which is how `"::1\n"` validated as `::1`. */
const ipv6Alphabet = /^[0-9a-fA-F:.]+$/;
function isValidIPv6(value) {
    if (!ipv6Alphabet.test(value))
        return false;
    return canParseURL(`http://[${value}]`);
}
const $ZodIPv6 = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodIPv6", (inst, def) => {
    def.pattern ?? (def.pattern = regexes.ipv6);
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (!isValidIPv6(payload.value)) {
            payload.issues.push({
                code: "invalid_format",
                format: "ipv6",
                input: payload.value,
                inst,
                continue: !def.abort,
            });
        }
    };
})));
const $ZodMAC = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodMAC", (inst, def) => {
    def.pattern ?? (def.pattern = regexes.mac(def.delimiter));
    $ZodStringFormat.init(inst, def);
})));
const $ZodCIDRv4 = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCIDRv4", (inst, def) => {
    def.pattern ?? (def.pattern = regexes.cidrv4);
    $ZodStringFormat.init(inst, def);
})));
function isValidCIDRv6(value) {
    const parts = value.split("/");
    if (parts.length !== 2)
        return false;
    const [address, prefix] = parts;
    if (!prefix)
        return false;
    const prefixNum = Number(prefix);
    if (`${prefixNum}` !== prefix)
        return false;
    if (prefixNum < 0 || prefixNum > 128)
        return false;
    return isValidIPv6(address);
}
const $ZodCIDRv6 = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCIDRv6", (inst, def) => {
    def.pattern ?? (def.pattern = regexes.cidrv6); // not used for validation
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (!isValidCIDRv6(payload.value)) {
            payload.issues.push({
                code: "invalid_format",
                format: "cidrv6",
                input: payload.value,
                inst,
                continue: !def.abort,
            });
        }
    };
})));
//////////////////////////////   ZodBase64   //////////////////////////////
function isValidBase64(data) {
    if (data === "")
        return true;
    // atob ignores whitespace, so reject it up front.
    if (/\s/.test(data))
        return false;
    if (data.length % 4 !== 0)
        return false;
    try {
        // @ts-ignore
        atob(data);
        return true;
    }
    catch {
        return false;
    }
}
// lax on purpose: the quantified regexes.base64 overflows the regex stack on multi-MB input and its leading ^$| alternation leaks through template-literal composition; isValidBase64 enforces length and padding
const base64Charset = /^[0-9a-zA-Z+/]*={0,2}$/;
const $ZodBase64 = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodBase64", (inst, def) => {
    def.pattern ?? (def.pattern = base64Charset);
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (isValidBase64(payload.value))
            return;
        payload.issues.push({
            code: "invalid_format",
            format: "base64",
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
})));
//////////////////////////////   ZodBase64URL   //////////////////////////////
// lax on purpose: the quantified regexes.base64url overflows the regex stack on multi-MB input; isValidBase64 enforces length on the padded string
const base64urlCharset = /^[A-Za-z0-9_-]*$/;
function isValidBase64URL(data) {
    if (!base64urlCharset.test(data))
        return false;
    const base64 = data.replace(/[-_]/g, (c) => (c === "-" ? "+" : "/"));
    const padded = base64.padEnd(Math.ceil(base64.length / 4) * 4, "=");
    return isValidBase64(padded);
}
const $ZodBase64URL = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodBase64URL", (inst, def) => {
    def.pattern ?? (def.pattern = base64urlCharset);
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (isValidBase64URL(payload.value))
            return;
        payload.issues.push({
            code: "invalid_format",
            format: "base64url",
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
})));
const $ZodE164 = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodE164", (inst, def) => {
    def.pattern ?? (def.pattern = regexes.e164);
    $ZodStringFormat.init(inst, def);
})));
//////////////////////////////   ZodCreditCard   //////////////////////////////
const CC_SANITIZE = /[- ]/g;
/** Luhn checksum on a digit-only string. Adapted from valibot (MIT). */
function isLuhnAlgo(digits) {
    let length = digits.length;
    let bit = 1;
    let sum = 0;
    while (length) {
        const value = digits.charCodeAt(--length) - 48;
        bit ^= 1;
        sum += bit ? [0, 2, 4, 6, 8, 1, 3, 5, 7, 9][value] : value;
    }
    return sum % 10 === 0;
}
function isValidCreditCard(input) {
    if (!regexes.creditCard.test(input))
        return false;
    return isLuhnAlgo(input.replace(CC_SANITIZE, ""));
}
const $ZodCreditCard = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCreditCard", (inst, def) => {
    // Shape only — the Luhn check below is not expressible as a pattern, so consumers of `pattern` (JSON Schema, template literals) get the length and separator rules alone.
    def.pattern ?? (def.pattern = regexes.creditCard);
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (isValidCreditCard(payload.value))
            return;
        payload.issues.push({
            code: "invalid_format",
            format: "credit_card",
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
})));
//////////////////////////////   ZodIBAN   //////////////////////////////
// iso 7064 mod 97-10 checksum without BigInt
function isIso7064Mod97(iban) {
    let remainder = 0;
    const len = iban.length;
    for (let i = 4; i < len; i++) {
        const code = iban.charCodeAt(i);
        remainder = (code >= 65 ? remainder * 100 + (code - 55) : remainder * 10 + (code - 48)) % 97;
    }
    for (let i = 0; i < 4; i++) {
        const code = iban.charCodeAt(i);
        remainder = (code >= 65 ? remainder * 100 + (code - 55) : remainder * 10 + (code - 48)) % 97;
    }
    return remainder === 1;
}
function isValidIBAN(input) {
    if (!regexes.iban.test(input))
        return false;
    return isIso7064Mod97(input);
}
const $ZodIBAN = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodIBAN", (inst, def) => {
    // shape only — checksum is not expressible as a pattern
    def.pattern ?? (def.pattern = regexes.iban);
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (isValidIBAN(payload.value))
            return;
        payload.issues.push({
            code: "invalid_format",
            format: "iban",
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
})));
//////////////////////////////   ZodJWT   //////////////////////////////
function isValidJWT(token, algorithm = null) {
    try {
        const tokensParts = token.split(".");
        if (tokensParts.length !== 3)
            return false;
        const [header] = tokensParts;
        if (!header)
            return false;
        // @ts-ignore
        const parsedHeader = JSON.parse(atob(header));
        if ("typ" in parsedHeader && parsedHeader?.typ !== "JWT")
            return false;
        if (!parsedHeader.alg)
            return false;
        if (algorithm && (!("alg" in parsedHeader) || parsedHeader.alg !== algorithm))
            return false;
        return true;
    }
    catch {
        return false;
    }
}
const $ZodJWT = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodJWT", (inst, def) => {
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (isValidJWT(payload.value, def.alg))
            return;
        payload.issues.push({
            code: "invalid_format",
            format: "jwt",
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
})));
const $ZodCustomStringFormat = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCustomStringFormat", (inst, def) => {
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (def.fn(payload.value))
            return;
        payload.issues.push({
            code: "invalid_format",
            format: def.format,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
})));
const $ZodNumber = /*@__PURE__*/ $constructor("$ZodNumber", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.pattern = number;
    inst._zod.parse = (payload, _ctx) => {
        if (def.coerce)
            try {
                payload.value = Number(payload.value);
            }
            catch (_) { }
        const input = payload.value;
        if (typeof input === "number" && !Number.isNaN(input) && Number.isFinite(input)) {
            return payload;
        }
        const received = typeof input === "number"
            ? Number.isNaN(input)
                ? "NaN"
                : !Number.isFinite(input)
                    ? String(input)
                    : undefined
            : undefined;
        payload.issues.push({
            expected: "number",
            code: "invalid_type",
            input,
            inst,
            ...(received ? { received } : {}),
        });
        return payload;
    };
});
const $ZodNumberFormat = /*@__PURE__*/ $constructor("$ZodNumberFormat", (inst, def) => {
    $ZodCheckNumberFormat.init(inst, def);
    $ZodNumber.init(inst, def); // no format checks
});
const $ZodBoolean = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodBoolean", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.pattern = regexes.boolean;
    inst._zod.parse = (payload, _ctx) => {
        if (def.coerce)
            try {
                payload.value = Boolean(payload.value);
            }
            catch (_) { }
        const input = payload.value;
        if (typeof input === "boolean")
            return payload;
        payload.issues.push({
            expected: "boolean",
            code: "invalid_type",
            input,
            inst,
        });
        return payload;
    };
})));
const $ZodBigInt = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodBigInt", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.pattern = regexes.bigint;
    inst._zod.parse = (payload, _ctx) => {
        if (def.coerce)
            try {
                payload.value = BigInt(payload.value);
            }
            catch (_) { }
        if (typeof payload.value === "bigint")
            return payload;
        payload.issues.push({
            expected: "bigint",
            code: "invalid_type",
            input: payload.value,
            inst,
        });
        return payload;
    };
})));
const $ZodBigIntFormat = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodBigIntFormat", (inst, def) => {
    checks.$ZodCheckBigIntFormat.init(inst, def);
    $ZodBigInt.init(inst, def); // no format checks
})));
const $ZodSymbol = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodSymbol", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, _ctx) => {
        const input = payload.value;
        if (typeof input === "symbol")
            return payload;
        payload.issues.push({
            expected: "symbol",
            code: "invalid_type",
            input,
            inst,
        });
        return payload;
    };
})));
const $ZodUndefined = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodUndefined", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.pattern = regexes.undefined;
    inst._zod.values = new Set([undefined]);
    inst._zod.parse = (payload, _ctx) => {
        const input = payload.value;
        if (typeof input === "undefined")
            return payload;
        payload.issues.push({
            expected: "undefined",
            code: "invalid_type",
            input,
            inst,
        });
        return payload;
    };
})));
const $ZodNull = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodNull", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.pattern = regexes.null;
    inst._zod.values = new Set([null]);
    inst._zod.parse = (payload, _ctx) => {
        const input = payload.value;
        if (input === null)
            return payload;
        payload.issues.push({
            expected: "null",
            code: "invalid_type",
            input,
            inst,
        });
        return payload;
    };
})));
const $ZodAny = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodAny", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload) => payload;
})));
const $ZodUnknown = /*@__PURE__*/ $constructor("$ZodUnknown", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload) => payload;
});
const $ZodNever = /*@__PURE__*/ $constructor("$ZodNever", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, _ctx) => {
        payload.issues.push({
            expected: "never",
            code: "invalid_type",
            input: payload.value,
            inst,
        });
        return payload;
    };
});
const $ZodVoid = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodVoid", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, _ctx) => {
        const input = payload.value;
        if (typeof input === "undefined")
            return payload;
        payload.issues.push({
            expected: "void",
            code: "invalid_type",
            input,
            inst,
        });
        return payload;
    };
})));
const $ZodDate = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodDate", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, _ctx) => {
        if (def.coerce) {
            try {
                payload.value = new Date(payload.value);
            }
            catch (_err) { }
        }
        const input = payload.value;
        const isDate = input instanceof Date;
        const isValidDate = isDate && !Number.isNaN(input.getTime());
        if (isValidDate)
            return payload;
        payload.issues.push({
            expected: "date",
            code: "invalid_type",
            input,
            ...(isDate ? { received: "Invalid Date" } : {}),
            inst,
        });
        return payload;
    };
})));
// an oversized container fails its leading size checks before any element is parsed
function capSize(inst, size) {
    const caps = sizeCaps(inst._zod.def.checks);
    if (!caps.length)
        return;
    const cap = Math.min(...caps.map((c) => c[0]));
    const parse = inst._zod.parse;
    inst._zod.parse = (payload, ctx) => {
        const n = size(payload.value);
        if (n > cap && !ctx?.skipChecks && ctx?.direction !== "backward") {
            for (const [max, ch] of sizeCaps(inst._zod.def.checks)) {
                if (n > max && ch._zod.def.when(payload)) {
                    const start = payload.issues.length;
                    ch._zod.check(payload);
                    // the value is still the raw input, so no later check may read it
                    payload.issues[start].continue = false;
                    attachSchema(payload.issues, start, inst);
                    return payload;
                }
            }
        }
        return parse(payload, ctx);
    };
}
const arraySize = (input) => (Array.isArray(input) ? input.length : -1);
const mapSize = (input) => (input instanceof Map ? input.size : -1);
const setSize = (input) => (input instanceof Set ? input.size : -1);
function handleArrayResult(result, final, index) {
    if (result.issues.length) {
        final.issues.push(...prefixIssues(index, result.issues));
    }
    final.value[index] = result.value;
}
const $ZodArray = /*@__PURE__*/ $constructor("$ZodArray", (inst, def) => {
    $ZodType.init(inst, def);
    const memo = core_globalConfig.memoizer;
    memo?.attach(inst);
    inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        if (!Array.isArray(input)) {
            payload.issues.push({
                expected: "array",
                code: "invalid_type",
                input,
                inst,
            });
            return payload;
        }
        payload.value = memo ? memo.alloc(inst, payload, Array(input.length), ctx) : Array(input.length);
        const proms = [];
        const abortEarly = ctx?.abortEarly;
        for (let i = 0; i < input.length; i++) {
            const item = input[i];
            const result = def.element._zod.run({
                value: item,
                issues: [],
            }, ctx);
            if (result instanceof Promise) {
                proms.push(result.then((result) => handleArrayResult(result, payload, i)));
            }
            else {
                handleArrayResult(result, payload, i);
                // the element's payload is authoritative here, since handleArrayResult forwards every issue; an object's is not, because it drops a failed absent optional
                if (abortEarly && result.issues.length !== 0 && aborted(result))
                    break;
            }
        }
        if (proms.length) {
            return Promise.all(proms).then(() => payload);
        }
        return payload; //handleArrayResultsAsync(parseResults, final);
    };
    capSize(inst, arraySize);
});
function handlePropertyResult(result, final, key, input, optin, optout) {
    const isPresent = key in input;
    const isOptionalOut = optout === "optional";
    // The middle rung means "absence permitted, nothing supplied in its place", so an absent key contributes nothing — whatever the schema made of `undefined` is invented, not substituted. Only `optional` reaches this with a value: `defaulted` substitutes, and a schema that isn't optional-out has to keep the key.
    if (!isPresent && isOptionalOut && optin === "optional") {
        return;
    }
    if (result.issues.length) {
        // For optional-in/out schemas, ignore errors on absent keys.
        if (optin !== undefined && isOptionalOut && !isPresent) {
            return;
        }
        final.issues.push(...prefixIssues(key, result.issues));
    }
    if (!isPresent && optin === undefined) {
        if (!result.issues.length) {
            final.issues.push({
                code: "invalid_type",
                expected: "nonoptional",
                input: undefined,
                path: [key],
            });
        }
        return;
    }
    if (result.value === undefined) {
        if (isPresent || (optin === "defaulted" && !isOptionalOut)) {
            final.value[key] = undefined;
        }
    }
    else {
        final.value[key] = result.value;
    }
}
// one shared instance; a fresh [] per schema cost 56 bytes retained
const NO_SYMBOL_KEYS = [];
function normalizeDef(def) {
    const keys = Object.keys(def.shape);
    const ownSymbols = Object.getOwnPropertySymbols(def.shape);
    const symbolKeys = ownSymbols.length ? ownSymbols : NO_SYMBOL_KEYS;
    // aliases `keys` when there are no symbols, so a string-only shape keeps one array
    const allKeys = symbolKeys.length ? [...keys, ...symbolKeys] : keys;
    for (const k of allKeys) {
        if (!def.shape?.[k]?._zod?.traits?.has("$ZodType")) {
            throw new Error(`Invalid element at key "${String(k)}": expected a Zod schema`);
        }
    }
    const okeys = optionalKeys(def.shape);
    return {
        ...def,
        allKeys,
        symbolKeys,
        // string-only: handleCatchall matches it against `for...in`, which never yields a symbol
        keySet: new Set(keys),
        numKeys: keys.length,
        optionalKeys: new Set(okeys),
    };
}
function handleCatchall(proms, input, payload, ctx, def, inst, abortEarly) {
    const unrecognized = [];
    const keySet = def.keySet;
    const _catchall = def.catchall._zod;
    const t = _catchall.def.type;
    const optin = _catchall.optin;
    const optout = _catchall.optout;
    // starts at 0, not the current length: the shape phase already ran and may have aborted
    let seen = 0;
    for (const key in input) {
        if (abortEarly && payload.issues.length !== seen) {
            if (aborted(payload, seen))
                break;
            seen = payload.issues.length;
        }
        // Must precede the __proto__ branch: a declared key is not unrecognized, even though the shape loop deliberately strips __proto__ from the parsed output.
        if (keySet.has(key))
            continue;
        // Don't copy an undeclared __proto__ into the result; assignment to a plain {} would replace the result prototype. But in strict mode it is still an unknown key, so report it before skipping.
        if (key === "__proto__") {
            if (t === "never")
                unrecognized.push(key);
            continue;
        }
        if (t === "never") {
            unrecognized.push(key);
            continue;
        }
        const r = _catchall.run({ value: input[key], issues: [] }, ctx);
        if (r instanceof Promise) {
            proms.push(r.then((r) => handlePropertyResult(r, payload, key, input, optin, optout)));
        }
        else {
            handlePropertyResult(r, payload, key, input, optin, optout);
        }
    }
    if (unrecognized.length) {
        payload.issues.push({
            code: "unrecognized_keys",
            keys: unrecognized,
            input,
            inst,
            // Describes the shape of the input, not the validity of the parsed value, so it never aborts. The parse still fails; the schema's own checks just get to run first, and an enclosing intersection can reconcile the key against a sibling operand.
            continue: true,
        });
    }
    if (!proms.length)
        return payload;
    return Promise.all(proms).then(() => {
        return payload;
    });
}
const $ZodObject = /*@__PURE__*/ $constructor("$ZodObject", (inst, def) => {
    // requires cast because technically $ZodObject doesn't extend
    $ZodType.init(inst, def);
    const desc = Object.getOwnPropertyDescriptor(def, "shape");
    // a cloned def carries its source's accessor, which knows the shape it answers from; adopting that keeps the clone's keys readable without running it
    const sh = desc?.get ? desc.get.raw : (def.shape ?? {});
    if (sh) {
        // Freezes the shape on first read, so its getters resolve once and every later read sees the same schemas.
        const get = () => {
            const newSh = { ...sh };
            Object.defineProperty(def, "shape", { value: newSh });
            get.raw = newSh;
            return newSh;
        };
        get.raw = sh;
        Object.defineProperty(def, "shape", { get });
    }
    const _normalized = cached(() => normalizeDef(def));
    defineLazyInternal(inst, "propValues", (zod) => {
        const shape = zod.def.shape;
        const propValues = {};
        for (const key in shape) {
            const field = shape[key]._zod;
            if (field.values) {
                if (!Object.prototype.hasOwnProperty.call(propValues, key)) {
                    assignProp(propValues, key, new Set());
                }
                for (const v of field.values)
                    propValues[key].add(v);
                // An omittable slot reads back as undefined at a discriminator lookup, so it has to claim undefined: two options that can both omit the key are not discriminable on it.
                if (field.optin !== undefined)
                    propValues[key].add(undefined);
            }
        }
        return propValues;
    });
    const isObject = util_isObject;
    const catchall = def.catchall;
    let value;
    const memo = core_globalConfig.memoizer;
    memo?.attach(inst);
    inst._zod.parse = (payload, ctx) => {
        value ?? (value = _normalized.value);
        const input = payload.value;
        if (!isObject(input)) {
            payload.issues.push({
                expected: "object",
                code: "invalid_type",
                input,
                inst,
            });
            return payload;
        }
        payload.value = memo ? memo.alloc(inst, payload, {}, ctx) : {};
        const proms = [];
        const shape = value.shape;
        const abortEarly = ctx?.abortEarly;
        let seen = payload.issues.length;
        for (const key of value.allKeys) {
            if (abortEarly && payload.issues.length !== seen) {
                if (aborted(payload, seen))
                    break;
                seen = payload.issues.length;
            }
            if (key === "__proto__")
                continue;
            const el = shape[key];
            const optin = el._zod.optin;
            const optout = el._zod.optout;
            const r = el._zod.run({ value: input[key], issues: [] }, ctx);
            if (r instanceof Promise) {
                proms.push(r.then((r) => handlePropertyResult(r, payload, key, input, optin, optout)));
            }
            else {
                handlePropertyResult(r, payload, key, input, optin, optout);
            }
        }
        if (!catchall) {
            return proms.length ? Promise.all(proms).then(() => payload) : payload;
        }
        return handleCatchall(proms, input, payload, ctx, _normalized.value, inst, abortEarly === true);
    };
});
const $ZodObjectJIT = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodObjectJIT", (inst, def) => {
    // requires cast because technically $ZodObject doesn't extend
    $ZodObject.init(inst, def);
    const superParse = inst._zod.parse;
    const _normalized = util.cached(() => normalizeDef(def));
    const memo = core.globalConfig.memoizer;
    const generateFastpass = (shape) => {
        const normalized = _normalized.value;
        const syms = normalized.symbolKeys;
        // a symbol has no source literal, so it is read as `syms[i]` off the closed-over scope
        const doc = new Doc(["payload", "ctx"], { shape, inst, memo, syms });
        const parseStr = (k) => `shape[${k}]._zod.run({ value: input[${k}], issues: [] }, ctx)`;
        // prefixes in place, like util.prefixIssues. newResult must land before the early return: a catchall runs after this and would otherwise write onto the caller's input
        const prefixStr = (id, k) => `
          let ${id}_ab = false;
          for (let i = 0; i < ${id}.issues.length; i++) {
            const iss = ${id}.issues[i];
            iss.path = iss.path ? [${k}, ...iss.path] : [${k}];
            payload.issues.push(iss);
            if (iss.continue !== true) ${id}_ab = true;
          }
          if (${id}_ab && ctx && ctx.abortEarly) {
            payload.value = newResult;
            return payload;
          }`;
        doc.write(`const input = payload.value;`);
        const ids = Object.create(null);
        let counter = 0;
        for (const key of normalized.allKeys) {
            ids[key] = `key_${counter++}`;
        }
        // A: preserve key order {
        doc.write(memo ? `const newResult = memo.alloc(inst, payload, {}, ctx);` : `const newResult = {};`);
        for (const key of normalized.allKeys) {
            if (key === "__proto__")
                continue;
            const id = ids[key];
            const k = typeof key === "symbol" ? `syms[${syms.indexOf(key)}]` : util.esc(key);
            const isPresent = `${k} in input`;
            const schema = shape[key];
            const optin = schema?._zod?.optin;
            const isOptionalIn = optin !== undefined;
            const isOptionalOut = schema?._zod?.optout === "optional";
            doc.write(`const ${id} = ${parseStr(k)};`);
            if (isOptionalIn && isOptionalOut) {
                // For optional-in/out schemas, ignore errors on absent keys — and, like the interpreted path, drop the value produced alongside them. The middle rung goes further: it permits absence without supplying anything in its place, so an absent key contributes nothing at all.
                const assign = optin === "optional" ? `${id}_present` : `${id}.value !== undefined || ${id}_present`;
                doc.write(`
        const ${id}_present = ${isPresent};
        if (!${id}.issues.length || ${id}_present) {
          if (${id}.issues.length) {${prefixStr(id, k)}
          }

          if (${assign}) {
            newResult[${k}] = ${id}.value;
          }
        }

      `);
            }
            else if (!isOptionalIn) {
                doc.write(`
        const ${id}_present = ${isPresent};
        if (${id}.issues.length) {${prefixStr(id, k)}
        }
        if (!${id}_present && !${id}.issues.length) {
          payload.issues.push({
            code: "invalid_type",
            expected: "nonoptional",
            input: undefined,
            path: [${k}]
          });
          if (ctx && ctx.abortEarly) {
            payload.value = newResult;
            return payload;
          }
        }

        if (${id}_present) {
          newResult[${k}] = ${id}.value;
        }

      `);
            }
            else {
                doc.write(`
        if (${id}.issues.length) {${prefixStr(id, k)}
        }
      `);
                if (optin === "defaulted") {
                    doc.write(`newResult[${k}] = ${id}.value;`);
                }
                else {
                    doc.write(`
        if (${id}.value !== undefined || ${isPresent}) {
          newResult[${k}] = ${id}.value;
        }
      `);
                }
            }
        }
        doc.write(`payload.value = newResult;`);
        doc.write(`return payload;`);
        // closing `shape` in is what pays: turbofan specializes the parser against that one shape object, so every `shape[k]._zod.run` folds to a known callee. as a parameter it stays a generic load and measures 13% slower even with the forwarding frame gone
        return doc.compile();
    };
    let fastpass;
    const isObject = util.isObject;
    const jit = !core.globalConfig.jitless;
    const allowsEval = util.allowsEval;
    const fastEnabled = jit && allowsEval.value; // && !def.catchall;
    const catchall = def.catchall;
    let value;
    inst._zod.parse = (payload, ctx) => {
        value ?? (value = _normalized.value);
        const input = payload.value;
        if (!isObject(input)) {
            payload.issues.push({
                expected: "object",
                code: "invalid_type",
                input,
                inst,
            });
            return payload;
        }
        if (jit && fastEnabled && ctx?.async === false && ctx.jitless !== true) {
            // always synchronous
            if (!fastpass)
                fastpass = generateFastpass(def.shape);
            payload = fastpass(payload, ctx);
            if (!catchall)
                return payload;
            return handleCatchall([], input, payload, ctx, value, inst, ctx?.abortEarly === true);
        }
        return superParse(payload, ctx);
    };
})));
function handleUnionResults(results, final, inst, ctx) {
    for (const result of results) {
        if (result.issues.length === 0) {
            final.value = result.value;
            return final;
        }
    }
    const nonaborted = results.filter((r) => !aborted(r));
    if (nonaborted.length === 1) {
        final.value = nonaborted[0].value;
        return nonaborted[0];
    }
    final.issues.push({
        code: "invalid_union",
        input: final.value,
        inst,
        errors: results.map((result) => result.issues.map((iss) => finalizeIssue(iss, ctx, config()))),
    });
    return final;
}
const $ZodUnion = /*@__PURE__*/ $constructor("$ZodUnion", (inst, def) => {
    $ZodType.init(inst, def);
    defineLazyInternal(inst, "optin", (zod) => zod.def.options.some((o) => o._zod.optin === "defaulted")
        ? "defaulted"
        : zod.def.options.some((o) => o._zod.optin !== undefined)
            ? "optional"
            : undefined);
    defineLazyInternal(inst, "optout", (zod) => zod.def.options.some((o) => o._zod.optout === "optional") ? "optional" : undefined);
    defineLazyInternal(inst, "values", (zod) => {
        if (zod.def.options.every((o) => o._zod.values)) {
            return new Set(zod.def.options.flatMap((option) => Array.from(option._zod.values)));
        }
        return undefined;
    });
    defineLazyInternal(inst, "pattern", (zod) => {
        if (zod.def.options.every((o) => o._zod.pattern)) {
            const patterns = zod.def.options.map((o) => o._zod.pattern);
            return new RegExp(`^(${patterns.map((p) => cleanRegex(p.source)).join("|")})$`);
        }
        return undefined;
    });
    const first = def.options.length === 1 ? def.options[0]._zod.run : null;
    inst._zod.parse = (payload, ctx) => {
        if (first) {
            return first(payload, ctx);
        }
        let async = false;
        const results = [];
        for (const option of def.options) {
            const result = option._zod.run({
                value: payload.value,
                issues: [],
            }, ctx);
            if (result instanceof Promise) {
                results.push(result);
                async = true;
            }
            else {
                if (result.issues.length === 0)
                    return result;
                results.push(result);
            }
        }
        if (!async)
            return handleUnionResults(results, payload, inst, ctx);
        return Promise.all(results).then((results) => {
            return handleUnionResults(results, payload, inst, ctx);
        });
    };
});
function handleExclusiveUnionResults(results, final, inst, ctx) {
    const matches = [];
    for (let i = 0; i < results.length; i++) {
        if (results[i].issues.length === 0)
            matches.push(i);
    }
    if (matches.length === 1) {
        final.value = results[matches[0]].value;
        return final;
    }
    if (matches.length === 0) {
        // No matches - same as regular union
        final.issues.push({
            code: "invalid_union",
            input: final.value,
            inst,
            errors: results.map((result) => result.issues.map((iss) => util.finalizeIssue(iss, ctx, core.config()))),
        });
    }
    else {
        // Multiple matches - exclusive union failure
        final.issues.push({
            code: "invalid_union",
            input: final.value,
            inst,
            errors: [],
            inclusive: false,
            matches,
        });
    }
    return final;
}
const $ZodXor = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodXor", (inst, def) => {
    $ZodUnion.init(inst, def);
    def.inclusive = false;
    const first = def.options.length === 1 ? def.options[0]._zod.run : null;
    inst._zod.parse = (payload, ctx) => {
        if (first) {
            return first(payload, ctx);
        }
        let async = false;
        const results = [];
        for (const option of def.options) {
            const result = option._zod.run({
                value: payload.value,
                issues: [],
            }, ctx);
            if (result instanceof Promise) {
                results.push(result);
                async = true;
            }
            else {
                results.push(result);
            }
        }
        if (!async)
            return handleExclusiveUnionResults(results, payload, inst, ctx);
        return Promise.all(results).then((results) => {
            return handleExclusiveUnionResults(results, payload, inst, ctx);
        });
    };
})));
/** Returns the option whose discriminator claims `value`, or throws if ambiguous. */
function getDiscriminatedOption(union, value) {
    const internals = union._zod;
    let map = internals.bag.optionsMap;
    if (!map) {
        map = discriminatorMap(internals.def);
        internals.bag.optionsMap = map;
    }
    const option = map.get(value);
    if (option === null)
        throw new Error(`Ambiguous discriminator value "${String(value)}"`);
    return option;
}
function discriminatorMap(def) {
    const map = new Map();
    for (const option of def.options) {
        const values = option._zod.propValues?.[def.discriminator];
        if (!values || values.size === 0)
            throw new Error(`Invalid discriminated union option at index "${def.options.indexOf(option)}"`);
        for (const value of values) {
            if (map.has(value)) {
                if (value !== undefined)
                    throw new Error(`Duplicate discriminator value "${String(value)}"`);
                // keep the collision marked so a later member cannot reclaim it
                map.set(value, null);
            }
            else {
                map.set(value, option);
            }
        }
    }
    return map;
}
const $ZodDiscriminatedUnion = 
/*@__PURE__*/
(/* unused pure expression or super */ null && (core.$constructor("$ZodDiscriminatedUnion", (inst, def) => {
    def.inclusive = false;
    $ZodUnion.init(inst, def);
    const _super = inst._zod.parse;
    util.defineLazyInternal(inst, "propValues", (zod) => {
        const propValues = {};
        let undefinedCount = 0;
        for (const option of zod.def.options) {
            const pv = option._zod.propValues;
            if (!pv || Object.keys(pv).length === 0)
                throw new Error(`Invalid discriminated union option at index "${zod.def.options.indexOf(option)}"`);
            if (pv[zod.def.discriminator]?.has(undefined))
                undefinedCount++;
            for (const [k, v] of Object.entries(pv)) {
                if (!Object.prototype.hasOwnProperty.call(propValues, k)) {
                    util.assignProp(propValues, k, new Set());
                }
                for (const val of v) {
                    propValues[k].add(val);
                }
            }
        }
        if (!zod.def.unionFallback && undefinedCount > 1)
            propValues[zod.def.discriminator]?.delete(undefined);
        return propValues;
    });
    // Checked now rather than in the lookup map below, so an option that lacks the discriminator fails at the `discriminatedUnion` call instead of on the first object parsed. Options whose shape cannot be enumerated without resolving it — pipes and lazies — are left to the map.
    def.options.forEach((option, i) => {
        const propShape = util.rawShape(option._zod.def);
        if (propShape && !Object.prototype.hasOwnProperty.call(propShape, def.discriminator)) {
            throw new Error(`Invalid discriminated union option at index "${i}"`);
        }
    });
    const disc = util.cached(() => discriminatorMap(def));
    inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        if (!util.isObject(input)) {
            payload.issues.push({
                code: "invalid_type",
                expected: "object",
                input,
                inst,
            });
            return payload;
        }
        const value = input?.[def.discriminator];
        const opt = disc.value.get(value);
        // forward metadata cannot choose an encoder for an absent tag
        if (opt && (value !== undefined || ctx.direction !== "backward")) {
            return opt._zod.run(payload, ctx);
        }
        // Fall back to union matching when the fast discriminator path fails:
        // - explicitly enabled via unionFallback, or
        // - during backward direction (encode), since codec-based discriminators have different values in forward vs backward directions
        if (def.unionFallback || ctx.direction === "backward") {
            return _super(payload, ctx);
        }
        // no matching discriminator
        payload.issues.push({
            code: "invalid_union",
            errors: [],
            note: "No matching discriminator",
            discriminator: def.discriminator,
            options: Array.from(disc.value.keys()).filter((value) => disc.value.get(value) !== null),
            input,
            path: [def.discriminator],
            inst,
        });
        return payload;
    };
})));
const $ZodIntersection = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodIntersection", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        const left = def.left._zod.run({ value: input, issues: [] }, ctx);
        const right = def.right._zod.run({ value: input, issues: [] }, ctx);
        const async = left instanceof Promise || right instanceof Promise;
        if (async) {
            return Promise.all([left, right]).then(([left, right]) => {
                return handleIntersectionResults(payload, left, right);
            });
        }
        return handleIntersectionResults(payload, left, right);
    };
})));
function mergeValues(a, b) {
    // const aType = parse.t(a);
    // const bType = parse.t(b);
    if (a === b) {
        return { valid: true, data: a };
    }
    if (a instanceof Date && b instanceof Date && +a === +b) {
        return { valid: true, data: a };
    }
    if (util.isPlainObject(a) && util.isPlainObject(b)) {
        const bKeys = Object.keys(b);
        const sharedKeys = Object.keys(a).filter((key) => bKeys.indexOf(key) !== -1);
        const newObj = { ...a, ...b };
        if (Object.prototype.hasOwnProperty.call(newObj, "__proto__"))
            delete newObj.__proto__;
        for (const key of sharedKeys) {
            if (key === "__proto__")
                continue;
            const sharedValue = mergeValues(a[key], b[key]);
            if (!sharedValue.valid) {
                return {
                    valid: false,
                    mergeErrorPath: [key, ...sharedValue.mergeErrorPath],
                };
            }
            newObj[key] = sharedValue.data;
        }
        return { valid: true, data: newObj };
    }
    if (Array.isArray(a) && Array.isArray(b)) {
        if (a.length !== b.length) {
            return { valid: false, mergeErrorPath: [] };
        }
        const newArray = [];
        for (let index = 0; index < a.length; index++) {
            const itemA = a[index];
            const itemB = b[index];
            const sharedValue = mergeValues(itemA, itemB);
            if (!sharedValue.valid) {
                return {
                    valid: false,
                    mergeErrorPath: [index, ...sharedValue.mergeErrorPath],
                };
            }
            newArray.push(sharedValue.data);
        }
        return { valid: true, data: newArray };
    }
    return { valid: false, mergeErrorPath: [] };
}
function handleIntersectionResults(result, left, right) {
    // Track which side(s) reject each key. A key rejection is reported only when BOTH sides reject it, so a key owned by one branch survives the other's key schema. strictObject reports these as unrecognized_keys; a record with an open key schema reports one invalid_key per key.
    const unrecKeys = new Map();
    let unrecIssue;
    const keyIssues = new Map();
    const collect = (iss, side) => {
        let keys;
        if (iss.code === "unrecognized_keys" && !iss.path?.length) {
            unrecIssue ?? (unrecIssue = iss);
            keys = iss.keys;
        }
        else if (iss.code === "invalid_key" && iss.origin === "record" && iss.path?.length === 1) {
            const k = String(iss.path[0]);
            if (!keyIssues.has(k))
                keyIssues.set(k, iss);
            keys = [k];
        }
        else {
            return false;
        }
        for (const k of keys) {
            if (!unrecKeys.has(k))
                unrecKeys.set(k, {});
            unrecKeys.get(k)[side] = true;
        }
        return true;
    };
    for (const iss of left.issues) {
        if (!collect(iss, "l"))
            result.issues.push(iss);
    }
    for (const iss of right.issues) {
        if (!collect(iss, "r"))
            result.issues.push(iss);
    }
    // Report only keys rejected by BOTH sides
    const bothKeys = [...unrecKeys].filter(([, f]) => f.l && f.r).map(([k]) => k);
    if (bothKeys.length) {
        const aggregated = unrecIssue ? bothKeys.filter((k) => unrecIssue.keys.includes(k)) : [];
        if (aggregated.length)
            result.issues.push({ ...unrecIssue, keys: aggregated });
        for (const k of bothKeys) {
            if (!aggregated.includes(k) && keyIssues.has(k))
                result.issues.push(keyIssues.get(k));
        }
    }
    const merged = mergeValues(left.value, right.value);
    if (!merged.valid) {
        if (util.aborted(result))
            return result;
        throw new Error(`Unmergable intersection. Error path: ` + `${JSON.stringify(merged.mergeErrorPath)}`);
    }
    result.value = merged.data;
    return result;
}
const $ZodTuple = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodTuple", (inst, def) => {
    $ZodType.init(inst, def);
    const items = def.items;
    const memo = core.globalConfig.memoizer;
    memo?.attach(inst);
    inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        if (!Array.isArray(input)) {
            payload.issues.push({
                input,
                inst,
                expected: "tuple",
                code: "invalid_type",
            });
            return payload;
        }
        payload.value = memo ? memo.alloc(inst, payload, [], ctx) : [];
        const proms = [];
        const optinStart = getTupleOptStart(items, "optin");
        const optoutStart = getTupleOptStart(items, "optout");
        if (!def.rest) {
            if (input.length < optinStart) {
                payload.issues.push({
                    code: "too_small",
                    minimum: optinStart,
                    inclusive: true,
                    input,
                    inst,
                    origin: "array",
                });
                return payload;
            }
            if (input.length > items.length) {
                payload.issues.push({
                    code: "too_big",
                    maximum: items.length,
                    inclusive: true,
                    input,
                    inst,
                    origin: "array",
                });
            }
        }
        // Run every item in parallel, collecting results into an indexed array. The post-processing in `handleTupleResults` walks them in order so it can decide whether an absent optional-output error can truncate the tail or must be reported to preserve required output.
        const itemResults = new Array(items.length);
        // only tracked when there is a rest loop to skip
        const abortEarly = def.rest ? ctx?.abortEarly : undefined;
        let itemAborted = false;
        for (let i = 0; i < items.length; i++) {
            const r = items[i]._zod.run({ value: input[i], issues: [] }, ctx);
            if (r instanceof Promise) {
                proms.push(r.then((rr) => {
                    itemResults[i] = rr;
                }));
            }
            else {
                itemResults[i] = r;
                if (abortEarly && !itemAborted && r.issues.length)
                    itemAborted = util.aborted(r);
            }
        }
        // sound because rest is non-empty exactly when every fixed index is present, the one case handleTupleResults cannot discard an item's issues
        if (def.rest && !itemAborted) {
            let i = items.length - 1;
            const rest = input.slice(items.length);
            let seen = payload.issues.length;
            for (const el of rest) {
                if (abortEarly && payload.issues.length !== seen) {
                    if (util.aborted(payload, seen))
                        break;
                    seen = payload.issues.length;
                }
                i++;
                const result = def.rest._zod.run({ value: el, issues: [] }, ctx);
                if (result instanceof Promise) {
                    proms.push(result.then((r) => handleTupleResult(r, payload, i)));
                }
                else {
                    handleTupleResult(result, payload, i);
                }
            }
        }
        if (proms.length) {
            return Promise.all(proms).then(() => handleTupleResults(itemResults, payload, items, input, optoutStart));
        }
        return handleTupleResults(itemResults, payload, items, input, optoutStart);
    };
})));
function getTupleOptStart(items, key) {
    for (let i = items.length - 1; i >= 0; i--) {
        // optin is a three-rung ladder so any rung above `undefined` permits an absent slot; optout stays two-valued.
        const omittable = key === "optin" ? items[i]._zod.optin !== undefined : items[i]._zod.optout === "optional";
        if (!omittable)
            return i + 1;
    }
    return 0;
}
function handleTupleResult(result, final, index) {
    if (result.issues.length) {
        final.issues.push(...util.prefixIssues(index, result.issues));
    }
    final.value[index] = result.value;
}
function handleTupleResults(itemResults, final, items, input, optoutStart) {
    // Walk results in order. Mirror $ZodObject's swallow-on-absent-optional rule, but only after `optoutStart`: the first index where the output tuple tail can be absent.
    for (let i = 0; i < items.length; i++) {
        const r = itemResults[i];
        const isPresent = i < input.length;
        // The array analog of `handlePropertyResult`'s absent-key early return: the middle rung permits absence without supplying anything in its place, so the tail truncates here instead of materializing whatever the item made of `undefined`.
        if (!isPresent && i >= optoutStart && items[i]._zod.optin === "optional") {
            final.value.length = i;
            break;
        }
        if (r.issues.length) {
            if (!isPresent && i >= optoutStart) {
                final.value.length = i;
                break;
            }
            final.issues.push(...util.prefixIssues(i, r.issues));
        }
        final.value[i] = r.value;
    }
    // Drop trailing slots that produced `undefined` for absent input
    // (the array analog of an absent optional key on an object). The
    // `i >= input.length` floor is critical: an explicit `undefined`
    // *inside* the input must be preserved even when the schema is
    // optional-out (e.g. `z.string().or(z.undefined())` accepting an
    // explicit undefined value).
    for (let i = final.value.length - 1; i >= input.length; i--) {
        if (items[i]._zod.optout === "optional" && final.value[i] === undefined) {
            final.value.length = i;
        }
        else {
            break;
        }
    }
    return final;
}
const $ZodRecord = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodRecord", (inst, def) => {
    $ZodType.init(inst, def);
    const memo = core.globalConfig.memoizer;
    memo?.attach(inst);
    inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        if (!util.isPlainObject(input)) {
            payload.issues.push({
                expected: "record",
                code: "invalid_type",
                input,
                inst,
            });
            return payload;
        }
        // no guard in either loop below: a record's invalid_key aborts but an enclosing intersection can reconcile it, so a stopped loop hides keys the sibling does not own and the intersection then rejects nothing
        const proms = [];
        const values = def.keyType._zod.values;
        if (values && !def.partial) {
            payload.value = memo ? memo.alloc(inst, payload, {}, ctx) : {};
            const recordKeys = new Set();
            for (const key of values) {
                if (typeof key === "string" || typeof key === "number" || typeof key === "symbol") {
                    recordKeys.add(typeof key === "number" ? key.toString() : key);
                    // A declared __proto__ is stripped but is not an unrecognized key.
                    if (key === "__proto__")
                        continue;
                    const keyResult = def.keyType._zod.run({ value: key, issues: [] }, ctx);
                    if (keyResult instanceof Promise) {
                        throw new Error("Async schemas not supported in object keys currently");
                    }
                    if (keyResult.issues.length) {
                        payload.issues.push({
                            code: "invalid_key",
                            origin: "record",
                            issues: keyResult.issues.map((iss) => util.finalizeIssue(iss, ctx, core.config())),
                            input: key,
                            path: [key],
                            inst,
                        });
                        continue;
                    }
                    const outKey = keyResult.value;
                    if (outKey === "__proto__")
                        continue;
                    const result = def.valueType._zod.run({ value: input[key], issues: [] }, ctx);
                    if (result instanceof Promise) {
                        proms.push(result.then((result) => {
                            if (result.issues.length) {
                                payload.issues.push(...util.prefixIssues(key, result.issues));
                            }
                            payload.value[outKey] = result.value;
                        }));
                    }
                    else {
                        if (result.issues.length) {
                            payload.issues.push(...util.prefixIssues(key, result.issues));
                        }
                        payload.value[outKey] = result.value;
                    }
                }
            }
            let unrecognized;
            for (const key in input) {
                if (!recordKeys.has(key)) {
                    if (def.mode === "loose") {
                        // skip __proto__ so it can't replace the result prototype via the assignment setter on the plain {} we build into
                        if (key === "__proto__")
                            continue;
                        payload.value[key] = input[key];
                    }
                    else {
                        unrecognized = unrecognized ?? [];
                        unrecognized.push(key);
                    }
                }
            }
            if (unrecognized && unrecognized.length > 0) {
                payload.issues.push({
                    code: "unrecognized_keys",
                    input,
                    inst,
                    keys: unrecognized,
                    continue: true,
                });
            }
        }
        else {
            payload.value = memo ? memo.alloc(inst, payload, {}, ctx) : {};
            // An enumerable key schema declares which keys the record owns, so a key outside the set is unrecognized. A non-enumerable one (regex, refine) is a constraint every key must satisfy, so a failing key is invalid. Only the former is reconcilable against the other side of an intersection.
            let unrecognized;
            // Reflect.ownKeys for Symbol-key support; filter non-enumerable to match z.object()
            for (const key of Reflect.ownKeys(input)) {
                if (key === "__proto__")
                    continue;
                if (!Object.prototype.propertyIsEnumerable.call(input, key))
                    continue;
                let keyResult = def.keyType._zod.run({ value: key, issues: [] }, ctx);
                if (keyResult instanceof Promise) {
                    throw new Error("Async schemas not supported in object keys currently");
                }
                // Numeric string fallback: if key is a numeric string and failed, retry with Number(key). This handles z.number(), z.literal([1, 2, 3]), and unions containing numeric literals
                const checkNumericKey = typeof key === "string" && regexes.number.test(key) && keyResult.issues.length;
                if (checkNumericKey) {
                    const retryResult = def.keyType._zod.run({ value: Number(key), issues: [] }, ctx);
                    if (retryResult instanceof Promise) {
                        throw new Error("Async schemas not supported in object keys currently");
                    }
                    if (retryResult.issues.length === 0) {
                        keyResult = retryResult;
                    }
                }
                if (keyResult.issues.length) {
                    if (def.mode === "loose") {
                        // Pass through unchanged
                        payload.value[key] = input[key];
                    }
                    else if (values) {
                        unrecognized = unrecognized ?? [];
                        unrecognized.push(key);
                    }
                    else {
                        // Default "strict" behavior: error on invalid key
                        payload.issues.push({
                            code: "invalid_key",
                            origin: "record",
                            issues: keyResult.issues.map((iss) => util.finalizeIssue(iss, ctx, core.config())),
                            input: key,
                            path: [key],
                            inst,
                        });
                    }
                    continue;
                }
                // the guard above tests the raw input key, but the key schema can normalize an ordinary key into __proto__; re-check the key we actually write under
                const outKey = keyResult.value;
                if (outKey === "__proto__")
                    continue;
                const result = def.valueType._zod.run({ value: input[key], issues: [] }, ctx);
                if (result instanceof Promise) {
                    proms.push(result.then((result) => {
                        if (result.issues.length) {
                            payload.issues.push(...util.prefixIssues(key, result.issues));
                        }
                        payload.value[outKey] = result.value;
                    }));
                }
                else {
                    if (result.issues.length) {
                        payload.issues.push(...util.prefixIssues(key, result.issues));
                    }
                    payload.value[outKey] = result.value;
                }
            }
            if (unrecognized && unrecognized.length > 0) {
                payload.issues.push({
                    code: "unrecognized_keys",
                    input,
                    inst,
                    keys: unrecognized,
                    continue: true,
                });
            }
        }
        if (proms.length) {
            return Promise.all(proms).then(() => payload);
        }
        return payload;
    };
})));
const $ZodMap = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodMap", (inst, def) => {
    $ZodType.init(inst, def);
    const memo = core.globalConfig.memoizer;
    memo?.attach(inst);
    inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        if (!(input instanceof Map)) {
            payload.issues.push({
                expected: "map",
                code: "invalid_type",
                input,
                inst,
            });
            return payload;
        }
        const proms = [];
        payload.value = memo ? memo.alloc(inst, payload, new Map(), ctx) : new Map();
        const abortEarly = ctx?.abortEarly;
        let seen = payload.issues.length;
        for (const [key, value] of input) {
            if (abortEarly && payload.issues.length !== seen) {
                if (util.aborted(payload, seen))
                    break;
                seen = payload.issues.length;
            }
            const keyResult = def.keyType._zod.run({ value: key, issues: [] }, ctx);
            const valueResult = def.valueType._zod.run({ value: value, issues: [] }, ctx);
            if (keyResult instanceof Promise || valueResult instanceof Promise) {
                proms.push(Promise.all([keyResult, valueResult]).then(([keyResult, valueResult]) => {
                    handleMapResult(keyResult, valueResult, payload, key, input, inst, ctx);
                }));
            }
            else {
                handleMapResult(keyResult, valueResult, payload, key, input, inst, ctx);
            }
        }
        if (proms.length)
            return Promise.all(proms).then(() => payload);
        return payload;
    };
    capSize(inst, mapSize);
})));
function handleMapResult(keyResult, valueResult, final, key, input, inst, ctx) {
    if (keyResult.issues.length) {
        if (util.propertyKeyTypes.has(typeof key)) {
            final.issues.push(...util.prefixIssues(key, keyResult.issues));
        }
        else {
            final.issues.push({
                code: "invalid_key",
                origin: "map",
                input,
                inst,
                issues: keyResult.issues.map((iss) => util.finalizeIssue(iss, ctx, core.config())),
            });
        }
    }
    if (valueResult.issues.length) {
        if (util.propertyKeyTypes.has(typeof key)) {
            final.issues.push(...util.prefixIssues(key, valueResult.issues));
        }
        else {
            final.issues.push({
                origin: "map",
                code: "invalid_element",
                input,
                inst,
                key: key,
                issues: valueResult.issues.map((iss) => util.finalizeIssue(iss, ctx, core.config())),
            });
        }
    }
    final.value.set(keyResult.value, valueResult.value);
}
const $ZodSet = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodSet", (inst, def) => {
    $ZodType.init(inst, def);
    const memo = core.globalConfig.memoizer;
    memo?.attach(inst);
    inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        if (!(input instanceof Set)) {
            payload.issues.push({
                input,
                inst,
                expected: "set",
                code: "invalid_type",
            });
            return payload;
        }
        const proms = [];
        payload.value = memo ? memo.alloc(inst, payload, new Set(), ctx) : new Set();
        const abortEarly = ctx?.abortEarly;
        let seen = payload.issues.length;
        for (const item of input) {
            if (abortEarly && payload.issues.length !== seen) {
                if (util.aborted(payload, seen))
                    break;
                seen = payload.issues.length;
            }
            const result = def.valueType._zod.run({ value: item, issues: [] }, ctx);
            if (result instanceof Promise) {
                proms.push(result.then((result) => handleSetResult(result, payload)));
            }
            else
                handleSetResult(result, payload);
        }
        if (proms.length)
            return Promise.all(proms).then(() => payload);
        return payload;
    };
    capSize(inst, setSize);
})));
function handleSetResult(result, final) {
    if (result.issues.length) {
        final.issues.push(...result.issues);
    }
    final.value.add(result.value);
}
const $ZodEnum = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodEnum", (inst, def) => {
    $ZodType.init(inst, def);
    const values = util.getEnumValues(def.entries);
    const valuesSet = new Set(values);
    inst._zod.values = valuesSet;
    util.defineLazyInternal(inst, "pattern", (zod) => {
        const patternValues = util.getEnumValues(zod.def.entries).filter((k) => util.propertyKeyTypes.has(typeof k));
        // unmatchable fallback, RE2-safe: an empty alternation would compile to /^()$/, which matches ""
        return new RegExp(patternValues.length ? `^(${patternValues.map((o) => util.escapeRegex(o.toString())).join("|")})$` : "^[^\\s\\S]$");
    });
    inst._zod.parse = (payload, _ctx) => {
        const input = payload.value;
        if (valuesSet.has(input)) {
            return payload;
        }
        payload.issues.push({
            code: "invalid_value",
            values,
            input,
            inst,
        });
        return payload;
    };
})));
const $ZodLiteral = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodLiteral", (inst, def) => {
    $ZodType.init(inst, def);
    const values = new Set(def.values);
    inst._zod.values = values;
    util.defineLazyInternal(inst, "pattern", (zod) => {
        const vals = zod.def.values;
        // unmatchable fallback, RE2-safe: an empty alternation would compile to /^()$/, which matches ""
        return new RegExp(vals.length
            ? `^(${vals
                .map((o) => typeof o === "string" ? util.escapeRegex(o) : o ? util.escapeRegex(o.toString()) : String(o))
                .join("|")})$`
            : "^[^\\s\\S]$");
    });
    inst._zod.parse = (payload, _ctx) => {
        const input = payload.value;
        if (values.has(input)) {
            return payload;
        }
        payload.issues.push({
            code: "invalid_value",
            values: def.values,
            input,
            inst,
        });
        return payload;
    };
})));
const $ZodFile = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodFile", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, _ctx) => {
        const input = payload.value;
        // @ts-ignore
        if (input instanceof File)
            return payload;
        payload.issues.push({
            expected: "file",
            code: "invalid_type",
            input,
            inst,
        });
        return payload;
    };
})));
const $ZodTransform = /*@__PURE__*/ $constructor("$ZodTransform", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.optin = "optional";
    core_globalConfig.memoizer?.guard(inst);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            throw new $ZodEncodeError(inst.constructor.name);
        }
        const _out = def.transform(payload.value, payload);
        if (ctx.async) {
            const output = _out instanceof Promise ? _out : Promise.resolve(_out);
            return output.then((output) => {
                payload.value = output;
                return payload;
            });
        }
        if (_out instanceof Promise) {
            throw new $ZodAsyncError();
        }
        payload.value = _out;
        return payload;
    };
});
function handleOptionalResult(payload, result) {
    // A substituting schema that still failed has no usable answer; yield undefined. Its issues are simply dropped: it ran on a payload of its own, so there is no shared array to truncate and nothing of the caller's to lose with it.
    payload.value = result.issues.length ? undefined : result.value;
    return payload;
}
const $ZodOptional = /*@__PURE__*/ $constructor("$ZodOptional", (inst, def) => {
    $ZodType.init(inst, def);
    // .optional() propagates absence rather than substituting for it, so a defaulted inner keeps its rung.
    defineLazyInternal(inst, "optin", (zod) => zod.def.innerType._zod.optin === "defaulted" ? "defaulted" : "optional");
    inst._zod.optout = "optional";
    defineLazyInternal(inst, "values", (zod) => {
        const values = zod.def.innerType._zod.values;
        return values ? new Set([...values, undefined]) : undefined;
    });
    defineLazyInternal(inst, "pattern", (zod) => {
        const pattern = zod.def.innerType._zod.pattern;
        return pattern ? new RegExp(`^(${cleanRegex(pattern.source)})?$`) : undefined;
    });
    inst._zod.parse = (payload, ctx) => {
        if (payload.value === undefined) {
            // Only the top rung substitutes a value for absence; everything else leaves it intact, which is what .optional() means.
            if (def.innerType._zod.optin !== "defaulted")
                return payload;
            // Its own payload, for the same reason $ZodCatch gets one: a pipe forwards an unrecognized key through the caller's issues array, and this must not read that as the substituting schema failing and drop it.
            const result = def.innerType._zod.run({ value: payload.value, issues: [] }, ctx);
            if (result instanceof Promise)
                return result.then((result) => handleOptionalResult(payload, result));
            return handleOptionalResult(payload, result);
        }
        return def.innerType._zod.run(payload, ctx);
    };
});
const $ZodExactOptional = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodExactOptional", (inst, def) => {
    // Call parent init - inherits optin/optout = "optional"
    $ZodOptional.init(inst, def);
    // Override values/pattern to NOT add undefined
    util.defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
    util.defineLazyInternal(inst, "pattern", (zod) => zod.def.innerType._zod.pattern);
    // Override parse to just delegate (no undefined handling)
    inst._zod.parse = (payload, ctx) => {
        return def.innerType._zod.run(payload, ctx);
    };
})));
const $ZodNullable = /*@__PURE__*/ $constructor("$ZodNullable", (inst, def) => {
    $ZodType.init(inst, def);
    defineLazyInternal(inst, "optin", (zod) => zod.def.innerType._zod.optin);
    defineLazyInternal(inst, "optout", (zod) => zod.def.innerType._zod.optout);
    defineLazyInternal(inst, "pattern", (zod) => {
        const pattern = zod.def.innerType._zod.pattern;
        return pattern ? new RegExp(`^(${cleanRegex(pattern.source)}|null)$`) : undefined;
    });
    defineLazyInternal(inst, "values", (zod) => {
        return zod.def.innerType._zod.values ? new Set([...zod.def.innerType._zod.values, null]) : undefined;
    });
    inst._zod.parse = (payload, ctx) => {
        // Forward direction (decode): allow null to pass through
        if (payload.value === null)
            return payload;
        return def.innerType._zod.run(payload, ctx);
    };
});
const $ZodDefault = /*@__PURE__*/ $constructor("$ZodDefault", (inst, def) => {
    $ZodType.init(inst, def);
    // inst._zod.qin = "true";
    inst._zod.optin = "defaulted";
    defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            return def.innerType._zod.run(payload, ctx);
        }
        // Forward direction (decode): apply defaults for undefined input
        if (payload.value === undefined) {
            payload.value = def.defaultValue;
            /**
             * $ZodDefault returns the default value immediately in forward direction.
             * It doesn't pass the default value into the validator ("prefault"). There's no reason to pass the default value through validation. The validity of the default is enforced by TypeScript statically. Otherwise, it's the responsibility of the user to ensure the default is valid. In the case of pipes with divergent in/out types, you can specify the default on the `in` schema of your ZodPipe to set a "prefault" for the pipe.   */
            return payload;
        }
        // Forward direction: continue with default handling
        const result = def.innerType._zod.run(payload, ctx);
        if (result instanceof Promise) {
            return result.then((result) => handleDefaultResult(result, def));
        }
        return handleDefaultResult(result, def);
    };
});
function handleDefaultResult(payload, def) {
    if (payload.value === undefined) {
        payload.value = def.defaultValue;
    }
    return payload;
}
const $ZodPrefault = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodPrefault", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.optin = "defaulted";
    util.defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            return def.innerType._zod.run(payload, ctx);
        }
        // Forward direction (decode): apply prefault for undefined input
        if (payload.value === undefined) {
            payload.value = def.defaultValue;
        }
        return def.innerType._zod.run(payload, ctx);
    };
})));
const $ZodNonOptional = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodNonOptional", (inst, def) => {
    $ZodType.init(inst, def);
    util.defineLazyInternal(inst, "values", (zod) => {
        const v = zod.def.innerType._zod.values;
        return v ? new Set([...v].filter((x) => x !== undefined)) : undefined;
    });
    inst._zod.parse = (payload, ctx) => {
        const result = def.innerType._zod.run(payload, ctx);
        if (result instanceof Promise) {
            return result.then((result) => handleNonOptionalResult(result, inst));
        }
        return handleNonOptionalResult(result, inst);
    };
})));
function handleNonOptionalResult(payload, inst) {
    if (!payload.issues.length && payload.value === undefined) {
        payload.issues.push({
            code: "invalid_type",
            expected: "nonoptional",
            input: payload.value,
            inst,
        });
    }
    return payload;
}
const $ZodSuccess = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodSuccess", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            throw new core.$ZodEncodeError("ZodSuccess");
        }
        const result = def.innerType._zod.run(payload, ctx);
        if (result instanceof Promise) {
            return result.then((result) => {
                payload.value = result.issues.length === 0;
                return payload;
            });
        }
        payload.value = result.issues.length === 0;
        return payload;
    };
})));
function handleCatchResult(payload, result, def, ctx) {
    if (!result.issues.length) {
        payload.value = result.value;
        // The value carries up, so the flag describing it has to carry with it: a back-edge into a node still being parsed must not be frozen by an enclosing readonly, and its checks belong to the node itself. Guarded so the ordinary case adds no own property.
        if (result.memo)
            payload.memo = true;
        return payload;
    }
    // Spread the inner's own payload, not ours: `value` has to stay the input the catch was handed, and the inner ran on a payload of its own so its issues are already private to this call.
    payload.value = def.catchValue({
        ...result,
        value: payload.value,
        error: {
            issues: result.issues.map((iss) => util.finalizeIssue(iss, ctx, core.config())),
        },
        input: payload.value,
    });
    return payload;
}
const $ZodCatch = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCatch", (inst, def) => {
    $ZodType.init(inst, def);
    util.defineLazyInternal(inst, "optin", (zod) => zod.def.innerType._zod.optin === "defaulted" ? "defaulted" : "optional");
    util.defineLazyInternal(inst, "optout", (zod) => zod.def.innerType._zod.optout);
    util.defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            return def.innerType._zod.run(payload, ctx);
        }
        // Forward direction (decode): apply catch logic
        const result = def.innerType._zod.run({ value: payload.value, issues: [] }, ctx);
        if (result instanceof Promise) {
            return result.then((result) => handleCatchResult(payload, result, def, ctx));
        }
        return handleCatchResult(payload, result, def, ctx);
    };
})));
const $ZodNaN = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodNaN", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, _ctx) => {
        if (typeof payload.value !== "number" || !Number.isNaN(payload.value)) {
            payload.issues.push({
                input: payload.value,
                inst,
                expected: "nan",
                code: "invalid_type",
            });
            return payload;
        }
        return payload;
    };
})));
const $ZodPipe = /*@__PURE__*/ $constructor("$ZodPipe", (inst, def) => {
    $ZodType.init(inst, def);
    defineLazyInternal(inst, "values", (zod) => zod.def.in._zod.values);
    defineLazyInternal(inst, "optin", (zod) => zod.def.in._zod.optin);
    defineLazyInternal(inst, "optout", (zod) => zod.def.out._zod.optout);
    defineLazyInternal(inst, "propValues", (zod) => zod.def.in._zod.propValues);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            const right = def.out._zod.run(payload, ctx);
            if (right instanceof Promise) {
                return right.then((right) => handlePipeResult(right, def.in, ctx));
            }
            return handlePipeResult(right, def.in, ctx);
        }
        const left = def.in._zod.run(payload, ctx);
        if (left instanceof Promise) {
            return left.then((left) => handlePipeResult(left, def.out, ctx));
        }
        return handlePipeResult(left, def.out, ctx);
    };
});
function handlePipeResult(left, next, ctx) {
    // Any issue stops the pipe, so a failing refinement never feeds its transform. An unrecognized key is the exception: it describes the input's extra properties, not the value being piped, and an enclosing intersection may yet reconcile it.
    if (left.issues.some((iss) => iss.code !== "unrecognized_keys")) {
        // prevent further checks
        left.aborted = true;
        return left;
    }
    return next._zod.run({ value: left.value, issues: left.issues }, ctx);
}
const $ZodCodec = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodCodec", (inst, def) => {
    $ZodType.init(inst, def);
    util.defineLazyInternal(inst, "values", (zod) => zod.def.in._zod.values);
    util.defineLazyInternal(inst, "optin", (zod) => zod.def.in._zod.optin);
    util.defineLazyInternal(inst, "optout", (zod) => zod.def.out._zod.optout);
    util.defineLazyInternal(inst, "propValues", (zod) => zod.def.in._zod.propValues);
    inst._zod.parse = (payload, ctx) => {
        const direction = ctx.direction || "forward";
        if (direction === "forward") {
            const left = def.in._zod.run(payload, ctx);
            if (left instanceof Promise) {
                return left.then((left) => handleCodecAResult(left, def, ctx));
            }
            return handleCodecAResult(left, def, ctx);
        }
        else {
            const right = def.out._zod.run(payload, ctx);
            if (right instanceof Promise) {
                return right.then((right) => handleCodecAResult(right, def, ctx));
            }
            return handleCodecAResult(right, def, ctx);
        }
    };
})));
function handleCodecAResult(result, def, ctx) {
    if (result.issues.length) {
        // prevent further checks
        result.aborted = true;
        return result;
    }
    const direction = ctx.direction || "forward";
    if (direction === "forward") {
        const transformed = def.transform(result.value, result);
        if (transformed instanceof Promise) {
            return transformed.then((value) => handleCodecTxResult(result, value, def.out, ctx));
        }
        return handleCodecTxResult(result, transformed, def.out, ctx);
    }
    else {
        const transformed = def.reverseTransform(result.value, result);
        if (transformed instanceof Promise) {
            return transformed.then((value) => handleCodecTxResult(result, value, def.in, ctx));
        }
        return handleCodecTxResult(result, transformed, def.in, ctx);
    }
}
function handleCodecTxResult(left, value, nextSchema, ctx) {
    // Check if transform added any issues
    if (left.issues.length) {
        left.aborted = true;
        return left;
    }
    return nextSchema._zod.run({ value, issues: left.issues }, ctx);
}
const $ZodPreprocess = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodPreprocess", (inst, def) => {
    $ZodPipe.init(inst, def);
})));
const $ZodReadonly = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodReadonly", (inst, def) => {
    $ZodType.init(inst, def);
    util.defineLazyInternal(inst, "propValues", (zod) => zod.def.innerType._zod.propValues);
    util.defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
    util.defineLazyInternal(inst, "optin", (zod) => zod.def.innerType?._zod?.optin);
    util.defineLazyInternal(inst, "optout", (zod) => zod.def.innerType?._zod?.optout);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            return def.innerType._zod.run(payload, ctx);
        }
        const result = def.innerType._zod.run(payload, ctx);
        if (result instanceof Promise) {
            return result.then(handleReadonlyResult);
        }
        return handleReadonlyResult(result);
    };
})));
function handleReadonlyResult(payload) {
    // A repeat visit hands back a node that is still being built; freezing it here would make the rest of its keys fail to assign.
    if (!payload.memo)
        payload.value = Object.freeze(payload.value);
    return payload;
}
// a leaf's pattern source with its own checks folded in: the last pattern-carrying check wins, else length bounds narrow the catch-all, else an integer format narrows the number form. the fold lives here instead of on `_zod.pattern` so a bundle without template literals never pays for it
function leafPattern(schema) {
    const def = schema._zod.def;
    let pattern = def.pattern;
    let isInt = !!def.format?.includes("int");
    let minimum;
    let maximum;
    for (const ch of def.checks ?? []) {
        const d = ch._zod.def;
        if (d.pattern)
            pattern = d.pattern;
        isInt || (isInt = !!d.format?.includes("int"));
        const lo = d.minimum ?? d.length;
        const hi = d.maximum ?? d.length;
        if (lo !== undefined && (minimum === undefined || lo > minimum))
            minimum = lo;
        if (hi !== undefined && (maximum === undefined || hi < maximum))
            maximum = hi;
    }
    if (pattern)
        return pattern.source;
    // an empty range matches nothing at runtime, and `{8,5}` is not a legal quantifier
    if (minimum !== undefined && maximum !== undefined && minimum > maximum)
        return "(?!)";
    if (minimum !== undefined || maximum !== undefined)
        return regexes.string({ minimum, maximum }).source;
    const own = schema._zod.pattern;
    return (isInt && own === regexes.number ? regexes.integer : own)?.source;
}
// a part's pattern source. a wrapper's pattern embeds its inner pattern's source verbatim, so the folded form is substituted in place without knowing the wrapper's own composition; a union's options are joined the way the union builds its own pattern
function partPattern(schema) {
    const def = schema._zod.def;
    const own = schema._zod.pattern?.source;
    // lazy resolves its inner on the internals, not the def
    const inner = def.innerType ?? schema._zod.innerType;
    if (inner) {
        const before = inner._zod.pattern?.source;
        const after = partPattern(inner);
        if (own && before && after && after !== before) {
            return own.replace(util.cleanRegex(before), () => util.cleanRegex(after));
        }
        return own;
    }
    if (def.options) {
        const sources = def.options.map(partPattern);
        if (sources.every(Boolean))
            return `^(${sources.map((s) => util.cleanRegex(s)).join("|")})$`;
    }
    return leafPattern(schema);
}
const $ZodTemplateLiteral = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodTemplateLiteral", (inst, def) => {
    $ZodType.init(inst, def);
    const regexParts = [];
    for (const part of def.parts) {
        if (typeof part === "object" && part !== null) {
            // is Zod schema
            const source = partPattern(part);
            if (!source) {
                throw new Error(`Invalid template literal part, no pattern found: ${[...part._zod.traits].shift()}`);
            }
            regexParts.push(util.cleanRegex(source));
        }
        else if (part === null || util.primitiveTypes.has(typeof part)) {
            regexParts.push(util.escapeRegex(`${part}`));
        }
        else {
            throw new Error(`Invalid template literal part: ${part}`);
        }
    }
    inst._zod.pattern = new RegExp(`^${regexParts.join("")}$`);
    inst._zod.parse = (payload, _ctx) => {
        if (typeof payload.value !== "string") {
            payload.issues.push({
                input: payload.value,
                inst,
                expected: "string",
                code: "invalid_type",
            });
            return payload;
        }
        inst._zod.pattern.lastIndex = 0;
        if (!inst._zod.pattern.test(payload.value)) {
            payload.issues.push({
                input: payload.value,
                inst,
                code: "invalid_format",
                format: def.format ?? "template_literal",
                pattern: inst._zod.pattern.source,
            });
            return payload;
        }
        return payload;
    };
})));
const $ZodFunction = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodFunction", (inst, def) => {
    $ZodType.init(inst, def);
    // Defined, not assigned: the classic prototype exposes `_def` as a getter with no setter.
    Object.defineProperty(inst, "_def", { value: def });
    inst._zod.def = def;
    inst.implement = (func) => {
        if (typeof func !== "function") {
            throw new Error("implement() must be called with a function");
        }
        // Defined inline so the closure stays anonymous: binding it to a `const` first names it, which costs 256 bytes per implemented function.
        return Object.defineProperty(function (...args) {
            const parsedArgs = inst._def.input ? parse(inst._def.input, args) : args;
            const result = Reflect.apply(func, this, parsedArgs);
            if (inst._def.output) {
                return parse(inst._def.output, result);
            }
            return result;
        }, "_zod", { value: inst._zod, enumerable: false });
    };
    inst.implementAsync = (func) => {
        if (typeof func !== "function") {
            throw new Error("implementAsync() must be called with a function");
        }
        return Object.defineProperty(async function (...args) {
            const parsedArgs = inst._def.input ? await parseAsync(inst._def.input, args) : args;
            const result = await Reflect.apply(func, this, parsedArgs);
            if (inst._def.output) {
                return await parseAsync(inst._def.output, result);
            }
            return result;
        }, "_zod", { value: inst._zod, enumerable: false });
    };
    inst._zod.parse = (payload, _ctx) => {
        if (typeof payload.value !== "function") {
            payload.issues.push({
                code: "invalid_type",
                expected: "function",
                input: payload.value,
                inst,
            });
            return payload;
        }
        // Check if output is a promise type to determine if we should use async implementation
        const hasPromiseOutput = inst._def.output && inst._def.output._zod.def.type === "promise";
        if (hasPromiseOutput) {
            payload.value = inst.implementAsync(payload.value);
        }
        else {
            payload.value = inst.implement(payload.value);
        }
        return payload;
    };
    inst.input = (...args) => {
        const F = inst.constructor;
        if (Array.isArray(args[0])) {
            return new F({
                type: "function",
                input: new $ZodTuple({
                    type: "tuple",
                    items: args[0],
                    rest: args[1],
                }),
                output: inst._def.output,
            });
        }
        return new F({
            type: "function",
            input: args[0],
            output: inst._def.output,
        });
    };
    inst.output = (output) => {
        const F = inst.constructor;
        return new F({
            type: "function",
            input: inst._def.input,
            output,
        });
    };
    return inst;
})));
const $ZodPromise = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodPromise", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, ctx) => {
        return Promise.resolve(payload.value).then((inner) => def.innerType._zod.run({ value: inner, issues: [] }, ctx));
    };
})));
const $ZodLazy = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("$ZodLazy", (inst, def) => {
    $ZodType.init(inst, def);
    // Cache the resolved inner type on the shared `def` so all clones of this lazy (e.g. via `.describe()`/`.meta()`) share the same inner instance, preserving identity for cycle detection on recursive schemas.
    util.defineLazy(inst._zod, "innerType", () => {
        const d = def;
        if (!d._cachedInner)
            d._cachedInner = def.getter();
        return d._cachedInner;
    });
    util.defineLazyInternal(inst, "pattern", (zod) => zod.innerType?._zod?.pattern);
    util.defineLazyInternal(inst, "propValues", (zod) => zod.innerType?._zod?.propValues);
    util.defineLazyInternal(inst, "optin", (zod) => zod.innerType?._zod?.optin ?? undefined);
    util.defineLazyInternal(inst, "optout", (zod) => zod.innerType?._zod?.optout ?? undefined);
    inst._zod.parse = (payload, ctx) => {
        const inner = inst._zod.innerType;
        return inner._zod.run(payload, ctx);
    };
})));
const $ZodCustom = /*@__PURE__*/ $constructor("$ZodCustom", (inst, def) => {
    $ZodCheck.init(inst, def);
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, _) => {
        return payload;
    };
    inst._zod.check = (payload) => {
        const input = payload.value;
        const r = def.fn(input);
        if (r instanceof Promise) {
            return r.then((r) => handleRefineResult(r, payload, input, inst));
        }
        handleRefineResult(r, payload, input, inst);
        return;
    };
});
function handleRefineResult(result, payload, input, inst) {
    if (!result) {
        const _iss = {
            code: "custom",
            input,
            inst, // incorporates params.error into issue reporting
            path: [...(inst._zod.def.path ?? [])], // incorporates params.error into issue reporting
            continue: !inst._zod.def.abort,
            // params: inst._zod.def.params,
        };
        if (inst._zod.def.params)
            _iss.params = inst._zod.def.params;
        payload.issues.push(util_issue(_iss));
    }
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/registries.js
var registries_a;
const $output = /*@__PURE__*/ (/* unused pure expression or super */ null && (Symbol("ZodOutput")));
const $input = /*@__PURE__*/ (/* unused pure expression or super */ null && (Symbol("ZodInput")));
class $ZodRegistry {
    constructor() {
        this._map = new WeakMap();
        this._idmap = new Map();
    }
    add(schema, ..._meta) {
        const meta = _meta[0];
        this._map.set(schema, meta);
        if (meta && typeof meta === "object" && "id" in meta) {
            this._idmap.set(meta.id, schema);
        }
        return this;
    }
    clear() {
        this._map = new WeakMap();
        this._idmap = new Map();
        return this;
    }
    remove(schema) {
        const meta = this._map.get(schema);
        if (meta && typeof meta === "object" && "id" in meta) {
            this._idmap.delete(meta.id);
        }
        this._map.delete(schema);
        return this;
    }
    get(schema) {
        // return this._map.get(schema) as any;
        // inherit metadata
        const p = schema._zod.parent;
        if (p) {
            const pm = { ...(this.get(p) ?? {}) };
            delete pm.id; // do not inherit id
            const f = { ...pm, ...this._map.get(schema) };
            return Object.keys(f).length ? f : undefined;
        }
        return this._map.get(schema);
    }
    has(schema) {
        return this._map.has(schema);
    }
}
// registries
function registry() {
    return new $ZodRegistry();
}
(registries_a = globalThis).__zod_globalRegistry ?? (registries_a.__zod_globalRegistry = registry());
const globalRegistry = globalThis.__zod_globalRegistry;

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/api.js




function snapshotChecks(def) {
    if (def.checks)
        def.checks = [...def.checks];
    return def;
}
// @__NO_SIDE_EFFECTS__
function _string(Class, params) {
    return new Class(snapshotChecks({ type: "string", ...normalizeParams(params) }));
}
// @__NO_SIDE_EFFECTS__
function _coercedString(Class, params) {
    return new Class(snapshotChecks({ type: "string", coerce: true, ...util.normalizeParams(params) }));
}
// @__NO_SIDE_EFFECTS__
function _email(Class, params) {
    return new Class({
        type: "string",
        format: "email",
        check: "string_format",
        abort: false,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _guid(Class, params) {
    return new Class({
        type: "string",
        format: "guid",
        check: "string_format",
        abort: false,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uuid(Class, params) {
    return new Class({
        type: "string",
        format: "uuid",
        check: "string_format",
        abort: false,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uuidv4(Class, params) {
    return new Class({
        type: "string",
        format: "uuid",
        check: "string_format",
        abort: false,
        version: "v4",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uuidv6(Class, params) {
    return new Class({
        type: "string",
        format: "uuid",
        check: "string_format",
        abort: false,
        version: "v6",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uuidv7(Class, params) {
    return new Class({
        type: "string",
        format: "uuid",
        check: "string_format",
        abort: false,
        version: "v7",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _url(Class, params) {
    return new Class({
        type: "string",
        format: "url",
        check: "string_format",
        abort: false,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function api_emoji(Class, params) {
    return new Class({
        type: "string",
        format: "emoji",
        check: "string_format",
        abort: false,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _nanoid(Class, params) {
    return new Class({
        type: "string",
        format: "nanoid",
        check: "string_format",
        abort: false,
        ...util.normalizeParams(params),
    });
}
/**
 * @deprecated CUID v1 is deprecated by its authors due to information leakage
 * (timestamps embedded in the id). Use {@link _cuid2} instead.
 * See https://github.com/paralleldrive/cuid.
 */
// @__NO_SIDE_EFFECTS__
function _cuid(Class, params) {
    return new Class({
        type: "string",
        format: "cuid",
        check: "string_format",
        abort: false,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _cuid2(Class, params) {
    return new Class({
        type: "string",
        format: "cuid2",
        check: "string_format",
        abort: false,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _ulid(Class, params) {
    return new Class({
        type: "string",
        format: "ulid",
        check: "string_format",
        abort: false,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _xid(Class, params) {
    return new Class({
        type: "string",
        format: "xid",
        check: "string_format",
        abort: false,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _ksuid(Class, params) {
    return new Class({
        type: "string",
        format: "ksuid",
        check: "string_format",
        abort: false,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _ipv4(Class, params) {
    return new Class({
        type: "string",
        format: "ipv4",
        check: "string_format",
        abort: false,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _ipv6(Class, params) {
    return new Class({
        type: "string",
        format: "ipv6",
        check: "string_format",
        abort: false,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _mac(Class, params) {
    return new Class({
        type: "string",
        format: "mac",
        check: "string_format",
        abort: false,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _cidrv4(Class, params) {
    return new Class({
        type: "string",
        format: "cidrv4",
        check: "string_format",
        abort: false,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _cidrv6(Class, params) {
    return new Class({
        type: "string",
        format: "cidrv6",
        check: "string_format",
        abort: false,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _base64(Class, params) {
    return new Class({
        type: "string",
        format: "base64",
        check: "string_format",
        abort: false,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _base64url(Class, params) {
    return new Class({
        type: "string",
        format: "base64url",
        check: "string_format",
        abort: false,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _e164(Class, params) {
    return new Class({
        type: "string",
        format: "e164",
        check: "string_format",
        abort: false,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _creditCard(Class, params) {
    return new Class({
        type: "string",
        format: "credit_card",
        check: "string_format",
        abort: false,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _iban(Class, params) {
    return new Class({
        type: "string",
        format: "iban",
        check: "string_format",
        abort: false,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _jwt(Class, params) {
    return new Class({
        type: "string",
        format: "jwt",
        check: "string_format",
        abort: false,
        ...util.normalizeParams(params),
    });
}
const TimePrecision = {
    Any: null,
    Minute: -1,
    Second: 0,
    Millisecond: 3,
    Microsecond: 6,
};
// @__NO_SIDE_EFFECTS__
function _isoDateTime(Class, params) {
    return new Class({
        type: "string",
        format: "datetime",
        check: "string_format",
        offset: false,
        local: false,
        precision: null,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _isoDate(Class, params) {
    return new Class({
        type: "string",
        format: "date",
        check: "string_format",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _isoTime(Class, params) {
    return new Class({
        type: "string",
        format: "time",
        check: "string_format",
        precision: null,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _isoDuration(Class, params) {
    return new Class({
        type: "string",
        format: "duration",
        check: "string_format",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _number(Class, params) {
    return new Class(snapshotChecks({ type: "number", checks: [], ...normalizeParams(params) }));
}
// @__NO_SIDE_EFFECTS__
function _coercedNumber(Class, params) {
    return new Class(snapshotChecks({ type: "number", coerce: true, checks: [], ...util.normalizeParams(params) }));
}
// @__NO_SIDE_EFFECTS__
function _int(Class, params) {
    return new Class({
        type: "number",
        check: "number_format",
        abort: false,
        format: "safeint",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _float32(Class, params) {
    return new Class({
        type: "number",
        check: "number_format",
        abort: false,
        format: "float32",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _float64(Class, params) {
    return new Class({
        type: "number",
        check: "number_format",
        abort: false,
        format: "float64",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _int32(Class, params) {
    return new Class({
        type: "number",
        check: "number_format",
        abort: false,
        format: "int32",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uint32(Class, params) {
    return new Class({
        type: "number",
        check: "number_format",
        abort: false,
        format: "uint32",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _boolean(Class, params) {
    return new Class({
        type: "boolean",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _coercedBoolean(Class, params) {
    return new Class({
        type: "boolean",
        coerce: true,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _bigint(Class, params) {
    return new Class({
        type: "bigint",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _coercedBigint(Class, params) {
    return new Class({
        type: "bigint",
        coerce: true,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _int64(Class, params) {
    return new Class({
        type: "bigint",
        check: "bigint_format",
        abort: false,
        format: "int64",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uint64(Class, params) {
    return new Class({
        type: "bigint",
        check: "bigint_format",
        abort: false,
        format: "uint64",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _symbol(Class, params) {
    return new Class({
        type: "symbol",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function api_undefined(Class, params) {
    return new Class({
        type: "undefined",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function api_null(Class, params) {
    return new Class({
        type: "null",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _any(Class) {
    return new Class({
        type: "any",
    });
}
// @__NO_SIDE_EFFECTS__
function _unknown(Class) {
    return new Class({
        type: "unknown",
    });
}
// @__NO_SIDE_EFFECTS__
function _never(Class, params) {
    return new Class({
        type: "never",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _void(Class, params) {
    return new Class({
        type: "void",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _date(Class, params) {
    return new Class({
        type: "date",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _coercedDate(Class, params) {
    return new Class({
        type: "date",
        coerce: true,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _nan(Class, params) {
    return new Class({
        type: "nan",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _lt(value, params) {
    return new checks.$ZodCheckLessThan({
        check: "less_than",
        ...util.normalizeParams(params),
        value,
        inclusive: false,
    });
}
// @__NO_SIDE_EFFECTS__
function _lte(value, params) {
    return new checks.$ZodCheckLessThan({
        check: "less_than",
        ...util.normalizeParams(params),
        value,
        inclusive: true,
    });
}

// @__NO_SIDE_EFFECTS__
function _gt(value, params) {
    return new $ZodCheckGreaterThan({
        check: "greater_than",
        ...normalizeParams(params),
        value,
        inclusive: false,
    });
}
// @__NO_SIDE_EFFECTS__
function _gte(value, params) {
    return new checks.$ZodCheckGreaterThan({
        check: "greater_than",
        ...util.normalizeParams(params),
        value,
        inclusive: true,
    });
}

// @__NO_SIDE_EFFECTS__
function _positive(params) {
    return _gt(0, params);
}
// negative
// @__NO_SIDE_EFFECTS__
function _negative(params) {
    return _lt(0, params);
}
// nonpositive
// @__NO_SIDE_EFFECTS__
function _nonpositive(params) {
    return _lte(0, params);
}
// nonnegative
// @__NO_SIDE_EFFECTS__
function _nonnegative(params) {
    return _gte(0, params);
}
// @__NO_SIDE_EFFECTS__
function _multipleOf(value, params) {
    return new checks.$ZodCheckMultipleOf({
        check: "multiple_of",
        ...util.normalizeParams(params),
        value,
    });
}
// @__NO_SIDE_EFFECTS__
function _maxSize(maximum, params) {
    return new checks.$ZodCheckMaxSize({
        check: "max_size",
        ...util.normalizeParams(params),
        maximum,
    });
}
// @__NO_SIDE_EFFECTS__
function _minSize(minimum, params) {
    return new checks.$ZodCheckMinSize({
        check: "min_size",
        ...util.normalizeParams(params),
        minimum,
    });
}
// @__NO_SIDE_EFFECTS__
function _size(size, params) {
    return new checks.$ZodCheckSizeEquals({
        check: "size_equals",
        ...util.normalizeParams(params),
        size,
    });
}
// @__NO_SIDE_EFFECTS__
function _maxLength(maximum, params) {
    const ch = new checks.$ZodCheckMaxLength({
        check: "max_length",
        ...util.normalizeParams(params),
        maximum,
    });
    return ch;
}
// @__NO_SIDE_EFFECTS__
function _minLength(minimum, params) {
    return new $ZodCheckMinLength({
        check: "min_length",
        ...normalizeParams(params),
        minimum,
    });
}
// @__NO_SIDE_EFFECTS__
function _length(length, params) {
    return new checks.$ZodCheckLengthEquals({
        check: "length_equals",
        ...util.normalizeParams(params),
        length,
    });
}
// @__NO_SIDE_EFFECTS__
function _regex(pattern, params) {
    return new checks.$ZodCheckRegex({
        check: "string_format",
        format: "regex",
        ...util.normalizeParams(params),
        pattern,
    });
}
// @__NO_SIDE_EFFECTS__
function _lowercase(params) {
    return new checks.$ZodCheckLowerCase({
        check: "string_format",
        format: "lowercase",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uppercase(params) {
    return new checks.$ZodCheckUpperCase({
        check: "string_format",
        format: "uppercase",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _includes(includes, params) {
    return new checks.$ZodCheckIncludes({
        check: "string_format",
        format: "includes",
        ...util.normalizeParams(params),
        includes,
    });
}
// @__NO_SIDE_EFFECTS__
function _startsWith(prefix, params) {
    return new checks.$ZodCheckStartsWith({
        check: "string_format",
        format: "starts_with",
        ...util.normalizeParams(params),
        prefix,
    });
}
// @__NO_SIDE_EFFECTS__
function _endsWith(suffix, params) {
    return new checks.$ZodCheckEndsWith({
        check: "string_format",
        format: "ends_with",
        ...util.normalizeParams(params),
        suffix,
    });
}
// @__NO_SIDE_EFFECTS__
function _property(property, schema, params) {
    return new checks.$ZodCheckProperty({
        check: "property",
        property,
        schema,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _properties(shape, params) {
    return new checks.$ZodCheckProperties({
        check: "properties",
        shape,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _mime(types, params) {
    return new checks.$ZodCheckMimeType({
        check: "mime_type",
        mime: types,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _overwrite(tx) {
    return new checks.$ZodCheckOverwrite({
        check: "overwrite",
        tx,
    });
}
// normalize
// @__NO_SIDE_EFFECTS__
function _normalize(form) {
    return _overwrite((input) => input.normalize(form));
}
// trim
// @__NO_SIDE_EFFECTS__
function _trim() {
    return _overwrite((input) => input.trim());
}
// toLowerCase
// @__NO_SIDE_EFFECTS__
function _toLowerCase() {
    return _overwrite((input) => input.toLowerCase());
}
// toUpperCase
// @__NO_SIDE_EFFECTS__
function _toUpperCase() {
    return _overwrite((input) => input.toUpperCase());
}
// slugify
// @__NO_SIDE_EFFECTS__
function _slugify() {
    return _overwrite((input) => util.slugify(input));
}
// @__NO_SIDE_EFFECTS__
function _array(Class, element, params) {
    return new Class({
        type: "array",
        element,
        // get element() {
        //   return element;
        // },
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _union(Class, options, params) {
    return new Class({
        type: "union",
        options,
        ...util.normalizeParams(params),
    });
}
function _xor(Class, options, params) {
    return new Class({
        type: "union",
        options,
        inclusive: false,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _discriminatedUnion(Class, discriminator, options, params) {
    return new Class({
        type: "union",
        options: options,
        discriminator,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _intersection(Class, left, right) {
    return new Class({
        type: "intersection",
        left,
        right,
    });
}
// export function _tuple(
//   Class: util.SchemaClass<schemas.$ZodTuple>,
//   items: [],
//   params?: string | $ZodTupleParams
// ): schemas.$ZodTuple<[], null>;
// @__NO_SIDE_EFFECTS__
function _tuple(Class, items, _paramsOrRest, _params) {
    const hasRest = _paramsOrRest instanceof schemas.$ZodType;
    const params = hasRest ? _params : _paramsOrRest;
    const rest = hasRest ? _paramsOrRest : null;
    return new Class({
        type: "tuple",
        items,
        rest,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _record(Class, keyType, valueType, params) {
    return new Class({
        type: "record",
        keyType,
        valueType,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _map(Class, keyType, valueType, params) {
    return new Class({
        type: "map",
        keyType,
        valueType,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _set(Class, valueType, params) {
    return new Class({
        type: "set",
        valueType,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _enum(Class, values, params) {
    const entries = Array.isArray(values) ? Object.fromEntries(values.map((v) => [v, v])) : values;
    // if (Array.isArray(values)) {
    //   for (const value of values) {
    //     entries[value] = value;
    //   }
    // } else {
    //   Object.assign(entries, values);
    // }
    // const entries: util.EnumLike = {};
    // for (const val of values) {
    //   entries[val] = val;
    // }
    return new Class({
        type: "enum",
        entries,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
/** @deprecated This API has been merged into `z.enum()`. Use `z.enum()` instead.
 *
 * ```ts
 * enum Colors { red, green, blue }
 * z.enum(Colors);
 * ```
 */
function _nativeEnum(Class, entries, params) {
    return new Class({
        type: "enum",
        entries,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _literal(Class, value, params) {
    return new Class({
        type: "literal",
        values: Array.isArray(value) ? value : [value],
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _file(Class, params) {
    return new Class({
        type: "file",
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _transform(Class, fn) {
    return new Class({
        type: "transform",
        transform: fn,
    });
}
// @__NO_SIDE_EFFECTS__
function _optional(Class, innerType) {
    return new Class({
        type: "optional",
        innerType,
    });
}
// @__NO_SIDE_EFFECTS__
function _nullable(Class, innerType) {
    return new Class({
        type: "nullable",
        innerType,
    });
}
// @__NO_SIDE_EFFECTS__
function _default(Class, innerType, defaultValue) {
    return new Class({
        type: "default",
        innerType,
        get defaultValue() {
            return typeof defaultValue === "function" ? defaultValue() : util.shallowClone(defaultValue);
        },
    });
}
// @__NO_SIDE_EFFECTS__
function _nonoptional(Class, innerType, params) {
    return new Class({
        type: "nonoptional",
        innerType,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _success(Class, innerType) {
    return new Class({
        type: "success",
        innerType,
    });
}
// @__NO_SIDE_EFFECTS__
function _catch(Class, innerType, catchValue) {
    return new Class({
        type: "catch",
        innerType,
        catchValue: (typeof catchValue === "function" ? catchValue : util.constantCatch(catchValue)),
    });
}
// @__NO_SIDE_EFFECTS__
function _pipe(Class, in_, out) {
    return new Class({
        type: "pipe",
        in: in_,
        out,
    });
}
// @__NO_SIDE_EFFECTS__
function _readonly(Class, innerType) {
    return new Class({
        type: "readonly",
        innerType,
    });
}
// @__NO_SIDE_EFFECTS__
function _templateLiteral(Class, parts, params) {
    return new Class({
        type: "template_literal",
        parts,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _lazy(Class, getter) {
    return new Class({
        type: "lazy",
        getter,
    });
}
// @__NO_SIDE_EFFECTS__
function _promise(Class, innerType) {
    return new Class({
        type: "promise",
        innerType,
    });
}
// @__NO_SIDE_EFFECTS__
function _custom(Class, fn, _params) {
    const norm = util.normalizeParams(_params);
    norm.abort ?? (norm.abort = true); // default to abort:false
    const schema = new Class({
        type: "custom",
        check: "custom",
        fn: fn,
        ...norm,
    });
    return schema;
}
// same as _custom but defaults to abort:false
// @__NO_SIDE_EFFECTS__
function _refine(Class, fn, _params) {
    const schema = new Class({
        type: "custom",
        check: "custom",
        fn: fn,
        ...normalizeParams(_params),
    });
    return schema;
}
// @__NO_SIDE_EFFECTS__
function _superRefine(fn, params) {
    const ch = _check((payload) => {
        payload.addIssue = (issue) => {
            if (typeof issue === "string") {
                payload.issues.push(util_issue(issue, payload.value, ch._zod.def));
            }
            else {
                // for Zod 3 backwards compatibility
                const _issue = issue;
                if (_issue.fatal)
                    _issue.continue = false;
                _issue.code ?? (_issue.code = "custom");
                if (!("input" in _issue))
                    _issue.input = payload.value;
                _issue.inst ?? (_issue.inst = ch);
                _issue.continue ?? (_issue.continue = !ch._zod.def.abort); // abort is always undefined, so this is always true...
                payload.issues.push(util_issue(_issue));
            }
        };
        return fn(payload.value, payload);
    }, params);
    return ch;
}
// @__NO_SIDE_EFFECTS__
function _check(fn, params) {
    const ch = new $ZodCheck({
        check: "custom",
        ...normalizeParams(params),
    });
    ch._zod.check = fn;
    return ch;
}
// @__NO_SIDE_EFFECTS__
function describe(description) {
    const ch = new $ZodCheck({ check: "describe" });
    ch._zod.onattach = [
        (inst) => {
            const existing = globalRegistry.get(inst) ?? {};
            globalRegistry.add(inst, { ...existing, description });
        },
    ];
    ch._zod.check = () => { }; // no-op check
    return ch;
}
// @__NO_SIDE_EFFECTS__
function meta(metadata) {
    const ch = new $ZodCheck({ check: "meta" });
    ch._zod.onattach = [
        (inst) => {
            const existing = globalRegistry.get(inst) ?? {};
            globalRegistry.add(inst, { ...existing, ...metadata });
        },
    ];
    ch._zod.check = () => { }; // no-op check
    return ch;
}
// @__NO_SIDE_EFFECTS__
function _stringbool(Classes, _params) {
    const params = util.normalizeParams(_params);
    let truthyArray = params.truthy ?? ["true", "1", "yes", "on", "y", "enabled"];
    let falsyArray = params.falsy ?? ["false", "0", "no", "off", "n", "disabled"];
    if (params.case !== "sensitive") {
        truthyArray = truthyArray.map((v) => (typeof v === "string" ? v.toLowerCase() : v));
        falsyArray = falsyArray.map((v) => (typeof v === "string" ? v.toLowerCase() : v));
    }
    const truthySet = new Set(truthyArray);
    const falsySet = new Set(falsyArray);
    const _Codec = Classes.Codec ?? schemas.$ZodCodec;
    const _Boolean = Classes.Boolean ?? schemas.$ZodBoolean;
    const _String = Classes.String ?? schemas.$ZodString;
    const stringSchema = new _String({ type: "string", error: params.error });
    const booleanSchema = new _Boolean({ type: "boolean", error: params.error });
    const codec = new _Codec({
        type: "pipe",
        in: stringSchema,
        out: booleanSchema,
        transform: ((input, payload) => {
            let data = input;
            if (params.case !== "sensitive")
                data = data.toLowerCase();
            if (truthySet.has(data)) {
                return true;
            }
            else if (falsySet.has(data)) {
                return false;
            }
            else {
                payload.issues.push({
                    code: "invalid_value",
                    expected: "stringbool",
                    values: [...truthySet, ...falsySet],
                    input: payload.value,
                    inst: codec,
                    continue: false,
                });
                return {};
            }
        }),
        reverseTransform: ((input, _payload) => {
            if (input === true) {
                return truthyArray[0] || "true";
            }
            else {
                return falsyArray[0] || "false";
            }
        }),
        error: params.error,
    });
    codec._zod.bag.truthy = truthyArray;
    codec._zod.bag.falsy = falsyArray;
    codec._zod.bag.case = params.case ?? "insensitive";
    return codec;
}
// @__NO_SIDE_EFFECTS__
function _stringFormat(Class, format, fnOrRegex, _params = {}) {
    const params = util.normalizeParams(_params);
    const def = {
        check: "string_format",
        type: "string",
        format,
        fn: typeof fnOrRegex === "function" ? fnOrRegex : (val) => fnOrRegex.test(val),
        ...params,
    };
    if (fnOrRegex instanceof RegExp) {
        def.pattern = fnOrRegex;
    }
    const inst = new Class(def);
    return inst;
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/errors.js


/* Computing the message eagerly is expensive (pretty-printed JSON of all
 * issues), so defer it until first read. The accessor functions and
 * descriptors are shared across instances to keep error construction
 * cheap; the computed message is cached on the internals object. The
 * setter preserves plain assignment semantics for consumers that
 * overwrite `message`. */
function _getMessage() {
    const internals = this._zod;
    internals.message ?? (internals.message = JSON.stringify(internals.def, jsonStringifyReplacer, 2));
    return internals.message;
}
function _setMessage(value) {
    this._zod.message = value;
}
const _messageDesc = {
    get: _getMessage,
    set: _setMessage,
    enumerable: true,
    configurable: true,
};
const _issuesDesc = { value: undefined, enumerable: false };
/* Prototypes that already carry the lazy `toString`. Seeded with the
 * intrinsics so that `init` on a foreign object — it accepts any object —
 * can never install an accessor onto a prototype we do not own. */
const _installedToString = /* @__PURE__ */ new WeakSet([Object.prototype, Error.prototype]);
const initializer = (inst, def) => {
    inst.name = "$ZodError";
    // `_zod` is already non-enumerable: $constructor's init defined it with this same descriptor
    _issuesDesc.value = def;
    Object.defineProperty(inst, "issues", _issuesDesc);
    // Clear the shared slot; a retained `value` pins the last error's issues.
    _issuesDesc.value = undefined;
    Object.defineProperty(inst, "message", _messageDesc);
    /* `toString` lives as a non-enumerable lazy getter on the shared
     * prototype; on first access it caches a per-instance closure so
     * detached usage still works. */
    const proto = Object.getPrototypeOf(inst);
    if (!_installedToString.has(proto)) {
        _installedToString.add(proto);
        Object.defineProperty(proto, "toString", {
            configurable: true,
            enumerable: false,
            get() {
                const value = () => this.message;
                Object.defineProperty(this, "toString", { value, configurable: true, writable: true });
                return value;
            },
            set(value) {
                Object.defineProperty(this, "toString", { value, configurable: true, writable: true });
            },
        });
    }
};
const $ZodError = $constructor("$ZodError", initializer);
const $ZodRealError = $constructor("$ZodError", initializer, undefined, {
    Parent: Error,
});
/** Get-or-create `obj[key]` as an own data property. A path segment naming an inherited member
 * ("toString", "constructor") would otherwise read through to the prototype, and assigning
 * "__proto__" would hit the setter instead of creating a key. */
function node(obj, key, make) {
    if (!Object.prototype.hasOwnProperty.call(obj, key)) {
        if (key === "__proto__") {
            Object.defineProperty(obj, key, { value: make(), writable: true, enumerable: true, configurable: true });
        }
        else {
            obj[key] = make();
        }
    }
    return obj[key];
}
function flattenError(error, mapper = (issue) => issue.message) {
    const fieldErrors = {};
    const formErrors = [];
    for (const sub of error.issues) {
        if (sub.path.length > 0) {
            node(fieldErrors, sub.path[0], () => []).push(mapper(sub));
        }
        else {
            formErrors.push(mapper(sub));
        }
    }
    return { formErrors, fieldErrors };
}
function formatError(error, mapper = (issue) => issue.message) {
    const fieldErrors = { _errors: [] };
    const processError = (error, path = []) => {
        for (const issue of error.issues) {
            if (issue.code === "invalid_union" && issue.errors.length) {
                issue.errors.map((issues) => processError({ issues }, [...path, ...issue.path]));
            }
            else if (issue.code === "invalid_key") {
                processError({ issues: issue.issues }, [...path, ...issue.path]);
            }
            else if (issue.code === "invalid_element") {
                processError({ issues: issue.issues }, [...path, ...issue.path]);
            }
            else {
                const fullpath = [...path, ...issue.path];
                if (fullpath.length === 0) {
                    fieldErrors._errors.push(mapper(issue));
                }
                else {
                    let curr = fieldErrors;
                    let i = 0;
                    while (i < fullpath.length) {
                        const el = fullpath[i];
                        const terminal = i === fullpath.length - 1;
                        // `_errors` is reserved by this legacy format, so merge a matching path segment into the current node instead of treating its array as a child.
                        if (el === "_errors") {
                            if (terminal)
                                curr._errors.push(mapper(issue));
                            i++;
                            continue;
                        }
                        // A path element may collide with an inherited property name such as
                        // "__proto__" or "constructor". Truthiness checks read the prototype
                        // (so no node is created, then ._errors.push throws), and bracket
                        // assignment of "__proto__" hits the setter instead of creating an
                        // own key. Guard the read with hasOwnProperty and create the node
                        // with defineProperty so any path element becomes a real own key.
                        if (!Object.prototype.hasOwnProperty.call(curr, el)) {
                            Object.defineProperty(curr, el, {
                                value: { _errors: [] },
                                enumerable: true,
                                writable: true,
                                configurable: true,
                            });
                        }
                        const node = curr[el];
                        if (terminal) {
                            node._errors.push(mapper(issue));
                        }
                        curr = node;
                        i++;
                    }
                }
            }
        }
    };
    processError(error);
    return fieldErrors;
}
function treeifyError(error, mapper = (issue) => issue.message) {
    const result = { errors: [] };
    const processError = (error, path = []) => {
        var _a;
        for (const issue of error.issues) {
            if (issue.code === "invalid_union" && issue.errors.length) {
                // regular union error
                issue.errors.map((issues) => processError({ issues }, [...path, ...issue.path]));
            }
            else if (issue.code === "invalid_key") {
                processError({ issues: issue.issues }, [...path, ...issue.path]);
            }
            else if (issue.code === "invalid_element") {
                processError({ issues: issue.issues }, [...path, ...issue.path]);
            }
            else {
                const fullpath = [...path, ...issue.path];
                if (fullpath.length === 0) {
                    result.errors.push(mapper(issue));
                    continue;
                }
                let curr = result;
                let i = 0;
                while (i < fullpath.length) {
                    const el = fullpath[i];
                    const terminal = i === fullpath.length - 1;
                    if (typeof el === "string") {
                        curr.properties ?? (curr.properties = {});
                        // el may collide with an inherited property name ("__proto__",
                        // "constructor", ...); ??= reads the prototype so the node is never
                        // created and curr.errors.push throws. Guard with hasOwnProperty and
                        // create the node with defineProperty so "__proto__" becomes a real
                        // own key rather than invoking the prototype setter.
                        if (!Object.prototype.hasOwnProperty.call(curr.properties, el)) {
                            Object.defineProperty(curr.properties, el, {
                                value: { errors: [] },
                                enumerable: true,
                                writable: true,
                                configurable: true,
                            });
                        }
                        curr = curr.properties[el];
                    }
                    else {
                        curr.items ?? (curr.items = []);
                        (_a = curr.items)[el] ?? (_a[el] = { errors: [] });
                        curr = curr.items[el];
                    }
                    if (terminal) {
                        curr.errors.push(mapper(issue));
                    }
                    i++;
                }
            }
        }
    };
    processError(error);
    return result;
}
/** Format a ZodError as a human-readable string in the following form.
 *
 * From
 *
 * ```ts
 * ZodError {
 *   issues: [
 *     {
 *       expected: 'string',
 *       code: 'invalid_type',
 *       path: [ 'username' ],
 *       message: 'Invalid input: expected string'
 *     },
 *     {
 *       expected: 'number',
 *       code: 'invalid_type',
 *       path: [ 'favoriteNumbers', 1 ],
 *       message: 'Invalid input: expected number'
 *     }
 *   ];
 * }
 * ```
 *
 * to
 *
 * ```
 * username
 *   ✖ Expected number, received string at "username
 * favoriteNumbers[0]
 *   ✖ Invalid input: expected number
 * ```
 */
function toDotPath(_path) {
    const segs = [];
    const path = _path.map((seg) => (typeof seg === "object" ? seg.key : seg));
    for (const seg of path) {
        if (typeof seg === "number")
            segs.push(`[${seg}]`);
        else if (typeof seg === "symbol")
            segs.push(`[${JSON.stringify(String(seg))}]`);
        else if (/[^\w$]/.test(seg))
            segs.push(`[${JSON.stringify(seg)}]`);
        else {
            if (segs.length)
                segs.push(".");
            segs.push(seg);
        }
    }
    return segs.join("");
}
function prettifyError(error) {
    const lines = [];
    // sort by path length
    const issues = [...error.issues].sort((a, b) => (a.path ?? []).length - (b.path ?? []).length);
    // Process each issue
    for (const issue of issues) {
        lines.push(`✖ ${issue.message}`);
        if (issue.path?.length)
            lines.push(`  → at ${toDotPath(issue.path)}`);
    }
    // Convert Map to formatted string
    return lines.join("\n");
}

;// CONCATENATED MODULE: ./node_modules/zod/v4/core/parse.js



// Always both keys, so the `_params` read site in `_parse` sees one object shape rather than two.
function finalizeParams(callee, params) {
    return { callee: params?.callee ?? callee, Err: params?.Err };
}
const _parse = (_Err) => {
    const fn = (schema, value, _ctx, _params) => {
        const ctx = _ctx ? { ..._ctx, async: false } : { async: false };
        const result = schema._zod.run({ value, issues: [] }, ctx);
        if (result instanceof Promise) {
            throw new $ZodAsyncError();
        }
        if (result.issues.length) {
            const e = new (_params?.Err ?? _Err)(result.issues.map((iss) => finalizeIssue(iss, ctx, config())));
            captureStackTrace(e, _params?.callee ?? fn);
            throw e;
        }
        return result.value;
    };
    return fn;
};
const parse_parse = /* @__PURE__*/ _parse($ZodRealError);
const _parseAsync = (_Err) => {
    const fn = async (schema, value, _ctx, params) => {
        const ctx = _ctx ? { ..._ctx, async: true } : { async: true };
        let result = schema._zod.run({ value, issues: [] }, ctx);
        if (result instanceof Promise)
            result = await result;
        if (result.issues.length) {
            const e = new (params?.Err ?? _Err)(result.issues.map((iss) => finalizeIssue(iss, ctx, config())));
            captureStackTrace(e, params?.callee ?? fn);
            throw e;
        }
        return result.value;
    };
    return fn;
};
const parse_parseAsync = /* @__PURE__*/ _parseAsync($ZodRealError);
const _safeParse = (_Err) => (schema, value, _ctx) => {
    const ctx = _ctx ? { ..._ctx, async: false } : { async: false };
    const result = schema._zod.run({ value, issues: [] }, ctx);
    if (result instanceof Promise) {
        throw new $ZodAsyncError();
    }
    return result.issues.length ? failure(_Err, result.issues, ctx) : { success: true, data: result.value };
};
const safeParse = /* @__PURE__*/ _safeParse($ZodRealError);
// the error is built on the first read of `error`: finalizing the issues and constructing the instance is most of a failing parse, and a caller that only branches on `success` never pays it. a getter in the literal keeps this small; the alternative, one shared accessor descriptor plus a hidden state slot, reads ~15% faster but costs ~75 B gzipped in every bundle
function failure(Err, issues, ctx) {
    let error;
    return {
        success: false,
        get error() {
            if (!error) {
                error = new Err(issues.map((iss) => finalizeIssue(iss, ctx, config())));
                // finalizeIssue drops `input`, so the built error holds nothing; keeping the raw issues past this point pins the parsed value for the life of the result
                issues = undefined;
                ctx = undefined;
            }
            return error;
        },
        set error(e) {
            error = e;
            // a replacement makes the getter's branch unreachable, so the captures have to go here too
            issues = undefined;
            ctx = undefined;
        },
    };
}
const _safeParseAsync = (_Err) => async (schema, value, _ctx) => {
    const ctx = _ctx ? { ..._ctx, async: true } : { async: true };
    let result = schema._zod.run({ value, issues: [] }, ctx);
    if (result instanceof Promise)
        result = await result;
    return result.issues.length ? failure(_Err, result.issues, ctx) : { success: true, data: result.value };
};
const safeParseAsync = /* @__PURE__*/ _safeParseAsync($ZodRealError);
// registry mirrors of the compiler's sentinels, so this module never imports the compiler
const COMPILE_INVALID = /* @__PURE__ */ (/* unused pure expression or super */ null && (Symbol.for("zod.compile.invalid")));
const COMPILE_FALLBACK = /* @__PURE__ */ (/* unused pure expression or super */ null && (Symbol.for("zod.compile.fallback")));
// Deliberately tiny, because v8 will not inline a body carrying the fallback's object literals and throw. Everything that is not the compiled happy path lives in validateFallback, and that split is worth ~35% on a compiled schema.
const validate = ((schema, value, _ctx) => {
    const validator = schema._zod.bag.validator;
    if (validator !== undefined) {
        if (validator(value) !== COMPILE_INVALID)
            return true;
        // a definite sentinel means the runtime would reject, so skip the re-parse; a ctx can still change the answer
        if (validator.definite === true && _ctx === undefined)
            return false;
    }
    return validateFallback(schema, value, _ctx);
});
function validateFallback(schema, value, _ctx) {
    const ctx = _ctx
        ? { ..._ctx, async: false, abortEarly: true }
        : { async: false, abortEarly: true };
    const fallbackRun = schema._zod.bag.fallbackRun;
    let result;
    if (fallbackRun) {
        // skip nested fast paths on the fallback, so user callbacks keep the at-most-twice bound
        ctx[COMPILE_FALLBACK] = true;
        result = fallbackRun({ value, issues: [] }, ctx);
    }
    else {
        result = schema._zod.run({ value, issues: [] }, ctx);
    }
    if (result instanceof Promise) {
        throw new core.$ZodAsyncError();
    }
    return result.issues.length === 0;
}
// no fast path: the compiler keeps async parses on the runtime, because a promise-returning callback that is not declared async compiles to a throw
const parse_validateAsync = async (schema, value, _ctx) => {
    const ctx = _ctx
        ? { ..._ctx, async: true, abortEarly: true }
        : { async: true, abortEarly: true };
    let result = schema._zod.run({ value, issues: [] }, ctx);
    if (result instanceof Promise)
        result = await result;
    return result.issues.length === 0;
};
const _encode = (_Err) => {
    const parse = _parse(_Err);
    const fn = (schema, value, _ctx, _params) => {
        const ctx = _ctx ? { ..._ctx, direction: "backward" } : { direction: "backward" };
        return parse(schema, value, ctx, finalizeParams(fn, _params));
    };
    return fn;
};
const encode = /* @__PURE__*/ _encode($ZodRealError);
const _decode = (_Err) => {
    const parse = _parse(_Err);
    const fn = (schema, value, _ctx, _params) => {
        return parse(schema, value, _ctx, finalizeParams(fn, _params));
    };
    return fn;
};
const decode = /* @__PURE__*/ _decode($ZodRealError);
const _encodeAsync = (_Err) => {
    const parseAsync = _parseAsync(_Err);
    const fn = async (schema, value, _ctx, _params) => {
        const ctx = _ctx ? { ..._ctx, direction: "backward" } : { direction: "backward" };
        return (await parseAsync(schema, value, ctx, finalizeParams(fn, _params)));
    };
    return fn;
};
const encodeAsync = /* @__PURE__*/ _encodeAsync($ZodRealError);
const _decodeAsync = (_Err) => {
    const parseAsync = _parseAsync(_Err);
    const fn = async (schema, value, _ctx, _params) => {
        return await parseAsync(schema, value, _ctx, finalizeParams(fn, _params));
    };
    return fn;
};
const decodeAsync = /* @__PURE__*/ _decodeAsync($ZodRealError);
const _safeEncode = (_Err) => (schema, value, _ctx) => {
    const ctx = _ctx ? { ..._ctx, direction: "backward" } : { direction: "backward" };
    return _safeParse(_Err)(schema, value, ctx);
};
const safeEncode = /* @__PURE__*/ _safeEncode($ZodRealError);
const _safeDecode = (_Err) => (schema, value, _ctx) => {
    return _safeParse(_Err)(schema, value, _ctx);
};
const safeDecode = /* @__PURE__*/ _safeDecode($ZodRealError);
const _safeEncodeAsync = (_Err) => async (schema, value, _ctx) => {
    const ctx = _ctx ? { ..._ctx, direction: "backward" } : { direction: "backward" };
    return _safeParseAsync(_Err)(schema, value, ctx);
};
const safeEncodeAsync = /* @__PURE__*/ _safeEncodeAsync($ZodRealError);
const _safeDecodeAsync = (_Err) => async (schema, value, _ctx) => {
    return _safeParseAsync(_Err)(schema, value, _ctx);
};
const safeDecodeAsync = /* @__PURE__*/ _safeDecodeAsync($ZodRealError);

;// CONCATENATED MODULE: ./node_modules/zod/v4/mini/schemas.js




const ZodMiniType = /*@__PURE__*/ $constructor("ZodMiniType", (inst, def) => {
    if (!inst._zod)
        throw new Error("Uninitialized schema in ZodMiniType.");
    $ZodType.init(inst, def);
    inst.def = def;
    inst.type = def.type;
}, {
    // `with` is an alias for `check`: the same function object, not a wrapper.
    get with() {
        return this.check;
    },
    set with(value) {
        own(this, "with", value);
    },
    parse(data, params) {
        return parse_parse(this, data, params, { callee: this.parse });
    },
    parseAsync(data, params) {
        return parse_parseAsync(this, data, params, { callee: this.parseAsync });
    },
    safeParse(data, params) {
        return safeParse(this, data, params);
    },
    safeParseAsync(data, params) {
        return safeParseAsync(this, data, params);
    },
    check(...checks) {
        const def = this.def;
        return this.clone({
            ...def,
            checks: [
                ...(def.checks ?? []),
                ...checks.map((ch) => typeof ch === "function" ? { _zod: { check: ch, def: { check: "custom" }, onattach: [] } } : ch),
            ],
        }, { parent: true });
    },
    clone(_def, params) {
        return clone(this, _def, params);
    },
    brand() {
        return this;
    },
    register(reg, meta) {
        reg.add(this, meta);
        return this;
    },
    apply(fn, ...args) {
        return args.length === 0 ? fn(this) : fn(this, ...args);
    },
});
const ZodMiniString = /*@__PURE__*/ $constructor("ZodMiniString", (inst, def) => {
    $ZodString.init(inst, def);
    ZodMiniType.init(inst, def);
});
// @__NO_SIDE_EFFECTS__
function schemas_string(params) {
    return _string(ZodMiniString, params);
}
const ZodMiniStringFormat = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniStringFormat", (inst, def) => {
    core.$ZodStringFormat.init(inst, def);
    ZodMiniString.init(inst, def);
})));
const ZodMiniEmail = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniEmail", (inst, def) => {
    core.$ZodEmail.init(inst, def);
    ZodMiniStringFormat.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function schemas_email(params) {
    return core._email(ZodMiniEmail, params);
}
const ZodMiniGUID = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniGUID", (inst, def) => {
    core.$ZodGUID.init(inst, def);
    ZodMiniStringFormat.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function schemas_guid(params) {
    return core._guid(ZodMiniGUID, params);
}
const ZodMiniUUID = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniUUID", (inst, def) => {
    core.$ZodUUID.init(inst, def);
    ZodMiniStringFormat.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function schemas_uuid(params) {
    return core._uuid(ZodMiniUUID, params);
}
// @__NO_SIDE_EFFECTS__
function uuidv4(params) {
    return core._uuidv4(ZodMiniUUID, params);
}
// ZodMiniUUIDv6
// @__NO_SIDE_EFFECTS__
function uuidv6(params) {
    return core._uuidv6(ZodMiniUUID, params);
}
// ZodMiniUUIDv7
// @__NO_SIDE_EFFECTS__
function uuidv7(params) {
    return core._uuidv7(ZodMiniUUID, params);
}
const ZodMiniURL = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniURL", (inst, def) => {
    core.$ZodURL.init(inst, def);
    ZodMiniStringFormat.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function url(params) {
    return core._url(ZodMiniURL, params);
}
// @__NO_SIDE_EFFECTS__
function httpUrl(params) {
    return core._url(ZodMiniURL, {
        protocol: regexes.httpProtocol,
        hostname: regexes.domain,
        ...util.normalizeParams(params),
    });
}
const ZodMiniEmoji = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniEmoji", (inst, def) => {
    core.$ZodEmoji.init(inst, def);
    ZodMiniStringFormat.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function schemas_emoji(params) {
    return core._emoji(ZodMiniEmoji, params);
}
const ZodMiniNanoID = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniNanoID", (inst, def) => {
    core.$ZodNanoID.init(inst, def);
    ZodMiniStringFormat.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function schemas_nanoid(params) {
    return core._nanoid(ZodMiniNanoID, params);
}
/**
 * @deprecated CUID v1 is deprecated by its authors due to information leakage
 * (timestamps embedded in the id). Use {@link ZodMiniCUID2} instead.
 * See https://github.com/paralleldrive/cuid.
 */
const ZodMiniCUID = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniCUID", (inst, def) => {
    core.$ZodCUID.init(inst, def);
    ZodMiniStringFormat.init(inst, def);
})));
/**
 * Validates a CUID v1 string.
 *
 * @deprecated CUID v1 is deprecated by its authors due to information leakage
 * (timestamps embedded in the id). Use {@link cuid2 | `z.cuid2()`} instead.
 * See https://github.com/paralleldrive/cuid.
 */
// @__NO_SIDE_EFFECTS__
function schemas_cuid(params) {
    return core._cuid(ZodMiniCUID, params);
}
const ZodMiniCUID2 = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniCUID2", (inst, def) => {
    core.$ZodCUID2.init(inst, def);
    ZodMiniStringFormat.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function schemas_cuid2(params) {
    return core._cuid2(ZodMiniCUID2, params);
}
const ZodMiniULID = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniULID", (inst, def) => {
    core.$ZodULID.init(inst, def);
    ZodMiniStringFormat.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function schemas_ulid(params) {
    return core._ulid(ZodMiniULID, params);
}
const ZodMiniXID = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniXID", (inst, def) => {
    core.$ZodXID.init(inst, def);
    ZodMiniStringFormat.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function schemas_xid(params) {
    return core._xid(ZodMiniXID, params);
}
const ZodMiniKSUID = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniKSUID", (inst, def) => {
    core.$ZodKSUID.init(inst, def);
    ZodMiniStringFormat.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function schemas_ksuid(params) {
    return core._ksuid(ZodMiniKSUID, params);
}
const ZodMiniIPv4 = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniIPv4", (inst, def) => {
    core.$ZodIPv4.init(inst, def);
    ZodMiniStringFormat.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function schemas_ipv4(params) {
    return core._ipv4(ZodMiniIPv4, params);
}
const ZodMiniIPv6 = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniIPv6", (inst, def) => {
    core.$ZodIPv6.init(inst, def);
    ZodMiniStringFormat.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function schemas_ipv6(params) {
    return core._ipv6(ZodMiniIPv6, params);
}
const ZodMiniCIDRv4 = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniCIDRv4", (inst, def) => {
    core.$ZodCIDRv4.init(inst, def);
    ZodMiniStringFormat.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function schemas_cidrv4(params) {
    return core._cidrv4(ZodMiniCIDRv4, params);
}
const ZodMiniCIDRv6 = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniCIDRv6", (inst, def) => {
    core.$ZodCIDRv6.init(inst, def);
    ZodMiniStringFormat.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function schemas_cidrv6(params) {
    return core._cidrv6(ZodMiniCIDRv6, params);
}
const ZodMiniMAC = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniMAC", (inst, def) => {
    core.$ZodMAC.init(inst, def);
    ZodMiniStringFormat.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function schemas_mac(params) {
    return core._mac(ZodMiniMAC, params);
}
const ZodMiniBase64 = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniBase64", (inst, def) => {
    core.$ZodBase64.init(inst, def);
    ZodMiniStringFormat.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function schemas_base64(params) {
    return core._base64(ZodMiniBase64, params);
}
const ZodMiniBase64URL = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniBase64URL", (inst, def) => {
    core.$ZodBase64URL.init(inst, def);
    ZodMiniStringFormat.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function schemas_base64url(params) {
    return core._base64url(ZodMiniBase64URL, params);
}
const ZodMiniE164 = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniE164", (inst, def) => {
    core.$ZodE164.init(inst, def);
    ZodMiniStringFormat.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function schemas_e164(params) {
    return core._e164(ZodMiniE164, params);
}
const ZodMiniCreditCard = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniCreditCard", (inst, def) => {
    core.$ZodCreditCard.init(inst, def);
    ZodMiniStringFormat.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function schemas_creditCard(params) {
    return core._creditCard(ZodMiniCreditCard, params);
}
const ZodMiniIBAN = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniIBAN", (inst, def) => {
    core.$ZodIBAN.init(inst, def);
    ZodMiniStringFormat.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function schemas_iban(params) {
    return core._iban(ZodMiniIBAN, params);
}
const ZodMiniJWT = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniJWT", (inst, def) => {
    core.$ZodJWT.init(inst, def);
    ZodMiniStringFormat.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function jwt(params) {
    return core._jwt(ZodMiniJWT, params);
}
const ZodMiniCustomStringFormat = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniCustomStringFormat", (inst, def) => {
    core.$ZodCustomStringFormat.init(inst, def);
    ZodMiniStringFormat.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function stringFormat(format, fnOrRegex, _params = {}) {
    return core._stringFormat(ZodMiniCustomStringFormat, format, fnOrRegex, _params);
}
// @__NO_SIDE_EFFECTS__
function schemas_hostname(_params) {
    return core._stringFormat(ZodMiniCustomStringFormat, "hostname", regexes.hostname, _params);
}
// @__NO_SIDE_EFFECTS__
function schemas_hex(_params) {
    return core._stringFormat(ZodMiniCustomStringFormat, "hex", regexes.hex, _params);
}
// @__NO_SIDE_EFFECTS__
function schemas_currencyCode(_params) {
    return core._stringFormat(ZodMiniCustomStringFormat, "currency_code", regexes.currencyCode, _params);
}
// @__NO_SIDE_EFFECTS__
function hash(alg, params) {
    const enc = params?.enc ?? "hex";
    const format = `${alg}_${enc}`;
    const regex = core.regexes[format];
    // check for unrecognized format
    if (!regex)
        throw new Error(`Unrecognized hash format: ${format}`);
    return core._stringFormat(ZodMiniCustomStringFormat, format, regex, params);
}
const ZodMiniNumber = /*@__PURE__*/ $constructor("ZodMiniNumber", (inst, def) => {
    $ZodNumber.init(inst, def);
    ZodMiniType.init(inst, def);
});
// @__NO_SIDE_EFFECTS__
function schemas_number(params) {
    return _number(ZodMiniNumber, params);
}
const ZodMiniNumberFormat = /*@__PURE__*/ $constructor("ZodMiniNumberFormat", (inst, def) => {
    $ZodNumberFormat.init(inst, def);
    ZodMiniNumber.init(inst, def);
});
function schemas_int(params) {
    return _int(ZodMiniNumberFormat, params);
}
function float32(params) {
    return core._float32(ZodMiniNumberFormat, params);
}
function float64(params) {
    return core._float64(ZodMiniNumberFormat, params);
}
function int32(params) {
    return core._int32(ZodMiniNumberFormat, params);
}
function uint32(params) {
    return core._uint32(ZodMiniNumberFormat, params);
}
const ZodMiniBoolean = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniBoolean", (inst, def) => {
    core.$ZodBoolean.init(inst, def);
    ZodMiniType.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function schemas_boolean(params) {
    return core._boolean(ZodMiniBoolean, params);
}
const ZodMiniBigInt = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniBigInt", (inst, def) => {
    core.$ZodBigInt.init(inst, def);
    ZodMiniType.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function schemas_bigint(params) {
    return core._bigint(ZodMiniBigInt, params);
}
const ZodMiniBigIntFormat = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniBigIntFormat", (inst, def) => {
    core.$ZodBigIntFormat.init(inst, def);
    ZodMiniBigInt.init(inst, def);
})));
function int64(params) {
    return core._int64(ZodMiniBigIntFormat, params);
}
function uint64(params) {
    return core._uint64(ZodMiniBigIntFormat, params);
}
const ZodMiniSymbol = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniSymbol", (inst, def) => {
    core.$ZodSymbol.init(inst, def);
    ZodMiniType.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function symbol(params) {
    return core._symbol(ZodMiniSymbol, params);
}
const ZodMiniUndefined = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniUndefined", (inst, def) => {
    core.$ZodUndefined.init(inst, def);
    ZodMiniType.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function schemas_undefined(params) {
    return core._undefined(ZodMiniUndefined, params);
}

const ZodMiniNull = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniNull", (inst, def) => {
    core.$ZodNull.init(inst, def);
    ZodMiniType.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function schemas_null(params) {
    return core._null(ZodMiniNull, params);
}

const ZodMiniAny = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniAny", (inst, def) => {
    core.$ZodAny.init(inst, def);
    ZodMiniType.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function any() {
    return core._any(ZodMiniAny);
}
const ZodMiniUnknown = /*@__PURE__*/ $constructor("ZodMiniUnknown", (inst, def) => {
    $ZodUnknown.init(inst, def);
    ZodMiniType.init(inst, def);
});
// @__NO_SIDE_EFFECTS__
function unknown() {
    return _unknown(ZodMiniUnknown);
}
const ZodMiniNever = /*@__PURE__*/ $constructor("ZodMiniNever", (inst, def) => {
    $ZodNever.init(inst, def);
    ZodMiniType.init(inst, def);
});
// @__NO_SIDE_EFFECTS__
function never(params) {
    return _never(ZodMiniNever, params);
}
const ZodMiniVoid = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniVoid", (inst, def) => {
    core.$ZodVoid.init(inst, def);
    ZodMiniType.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function schemas_void(params) {
    return core._void(ZodMiniVoid, params);
}

const ZodMiniDate = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniDate", (inst, def) => {
    core.$ZodDate.init(inst, def);
    ZodMiniType.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function schemas_date(params) {
    return core._date(ZodMiniDate, params);
}
const ZodMiniArray = /*@__PURE__*/ $constructor("ZodMiniArray", (inst, def) => {
    $ZodArray.init(inst, def);
    ZodMiniType.init(inst, def);
});
// @__NO_SIDE_EFFECTS__
function array(element, params) {
    return new ZodMiniArray({
        type: "array",
        element: element,
        ...normalizeParams(params),
    });
}
// .keyof
// @__NO_SIDE_EFFECTS__
function keyof(schema) {
    const shape = schema._zod.def.shape;
    return schemas_enum(Object.keys(shape));
}
const ZodMiniObject = /*@__PURE__*/ $constructor("ZodMiniObject", (inst, def) => {
    $ZodObject.init(inst, def);
    ZodMiniType.init(inst, def);
    installLazyProp(inst, "shape", (self) => self._zod.def.shape, false);
});
// @__NO_SIDE_EFFECTS__
function object(shape, params) {
    const def = {
        type: "object",
        shape: shape ?? {},
        ...util.normalizeParams(params),
    };
    return new ZodMiniObject(def);
}
// strictObject
// @__NO_SIDE_EFFECTS__
function strictObject(shape, params) {
    return new ZodMiniObject({
        type: "object",
        shape,
        catchall: never(),
        ...normalizeParams(params),
    });
}
// looseObject
// @__NO_SIDE_EFFECTS__
function looseObject(shape, params) {
    return new ZodMiniObject({
        type: "object",
        shape,
        catchall: unknown(),
        ...normalizeParams(params),
    });
}
// object methods
// @__NO_SIDE_EFFECTS__
function schemas_extend(schema, shape) {
    return extend(schema, shape);
}
// @__NO_SIDE_EFFECTS__
function schemas_safeExtend(schema, shape) {
    return util.safeExtend(schema, shape);
}
/**
 * @deprecated Use [`z.extend(A, B.shape)`](https://zod.dev/api?id=extend) instead.
 */
// @__NO_SIDE_EFFECTS__
function schemas_merge(a, b) {
    return util.merge(a, b);
}
// @__NO_SIDE_EFFECTS__
function schemas_pick(schema, mask) {
    return util.pick(schema, mask);
}
// .omit
// @__NO_SIDE_EFFECTS__
function schemas_omit(schema, mask) {
    return util.omit(schema, mask);
}
// @__NO_SIDE_EFFECTS__
function schemas_partial(schema, mask) {
    const def = schema._zod.def;
    if (def.type !== "tuple")
        return util.partial(ZodMiniOptional, schema, mask);
    // a refinement was authored against the full arity; partialing would run it on a shorter array
    if (def.checks?.length)
        throw new Error(".partial() cannot be used on tuple schemas containing refinements");
    return util.clone(schema, {
        ...def,
        items: def.items.map((item) => new ZodMiniOptional({ type: "optional", innerType: item })),
    });
}
// @__NO_SIDE_EFFECTS__
function exactPartial(schema, mask) {
    return util.partial(ZodMiniExactOptional, schema, mask, "exactPartial");
}
// @__NO_SIDE_EFFECTS__
function schemas_required(schema, mask) {
    return util.required(ZodMiniNonOptional, schema, mask);
}
// @__NO_SIDE_EFFECTS__
function catchall(inst, catchall) {
    // `mergeDefs` rather than a spread: spreading reads `shape`, and resolving it can mint a whole fresh subtree
    return inst.clone(util.mergeDefs(inst._zod.def, { catchall: catchall }));
}
const ZodMiniUnion = /*@__PURE__*/ $constructor("ZodMiniUnion", (inst, def) => {
    $ZodUnion.init(inst, def);
    ZodMiniType.init(inst, def);
});
// @__NO_SIDE_EFFECTS__
function union(options, params) {
    return new ZodMiniUnion({
        type: "union",
        options: options,
        ...normalizeParams(params),
    });
}
const ZodMiniXor = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniXor", (inst, def) => {
    ZodMiniUnion.init(inst, def);
    core.$ZodXor.init(inst, def);
})));
/** Creates an exclusive union (XOR) where exactly one option must match.
 * Unlike regular unions that succeed when any option matches, xor fails if
 * zero or more than one option matches the input. */
function xor(options, params) {
    return new ZodMiniXor({
        type: "union",
        options: options,
        inclusive: false,
        ...util.normalizeParams(params),
    });
}
const ZodMiniDiscriminatedUnion = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniDiscriminatedUnion", (inst, def) => {
    core.$ZodDiscriminatedUnion.init(inst, def);
    ZodMiniType.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function discriminatedUnion(discriminator, options, params) {
    return new ZodMiniDiscriminatedUnion({
        type: "union",
        options: options,
        discriminator,
        ...util.normalizeParams(params),
    });
}
const ZodMiniIntersection = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniIntersection", (inst, def) => {
    core.$ZodIntersection.init(inst, def);
    ZodMiniType.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function intersection(left, right) {
    return new ZodMiniIntersection({
        type: "intersection",
        left: left,
        right: right,
    });
}
const ZodMiniTuple = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniTuple", (inst, def) => {
    core.$ZodTuple.init(inst, def);
    ZodMiniType.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function tuple(items, _paramsOrRest, _params) {
    const hasRest = _paramsOrRest instanceof core.$ZodType;
    const params = hasRest ? _params : _paramsOrRest;
    const rest = hasRest ? _paramsOrRest : null;
    return new ZodMiniTuple({
        type: "tuple",
        items: items,
        rest,
        ...util.normalizeParams(params),
    });
}
const ZodMiniRecord = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniRecord", (inst, def) => {
    core.$ZodRecord.init(inst, def);
    ZodMiniType.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function record(keyType, valueType, params) {
    // v3-compat: z.record(valueType, params?) — defaults keyType to z.string()
    if (!valueType || !valueType._zod) {
        return new ZodMiniRecord({
            type: "record",
            keyType: schemas_string(),
            valueType: keyType,
            ...util.normalizeParams(valueType),
        });
    }
    return new ZodMiniRecord({
        type: "record",
        keyType,
        valueType: valueType,
        ...util.normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function partialRecord(keyType, valueType, params) {
    return new ZodMiniRecord({
        type: "record",
        keyType,
        valueType: valueType,
        ...util.normalizeParams(params),
        partial: true,
    });
}
function looseRecord(keyType, valueType, params) {
    return new ZodMiniRecord({
        type: "record",
        keyType,
        valueType: valueType,
        mode: "loose",
        ...util.normalizeParams(params),
    });
}
const ZodMiniMap = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniMap", (inst, def) => {
    core.$ZodMap.init(inst, def);
    ZodMiniType.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function map(keyType, valueType, params) {
    return new ZodMiniMap({
        type: "map",
        keyType: keyType,
        valueType: valueType,
        ...util.normalizeParams(params),
    });
}
const ZodMiniSet = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniSet", (inst, def) => {
    core.$ZodSet.init(inst, def);
    ZodMiniType.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function set(valueType, params) {
    return new ZodMiniSet({
        type: "set",
        valueType: valueType,
        ...util.normalizeParams(params),
    });
}
const ZodMiniEnum = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniEnum", (inst, def) => {
    core.$ZodEnum.init(inst, def);
    ZodMiniType.init(inst, def);
    // reuse the parsed value set so a numeric TS enum's reverse-mapping keys stay out
    inst.options = [...inst._zod.values];
})));
// @__NO_SIDE_EFFECTS__
function schemas_enum(values, params) {
    const entries = Array.isArray(values) ? Object.fromEntries(values.map((v) => [v, v])) : values;
    return new ZodMiniEnum({
        type: "enum",
        entries,
        ...util.normalizeParams(params),
    });
}

// @__NO_SIDE_EFFECTS__
/** @deprecated This API has been merged into `z.enum()`. Use `z.enum()` instead.
 *
 * ```ts
 * enum Colors { red, green, blue }
 * z.enum(Colors);
 * ```
 */
function nativeEnum(entries, params) {
    return new ZodMiniEnum({
        type: "enum",
        entries,
        ...util.normalizeParams(params),
    });
}
const ZodMiniLiteral = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniLiteral", (inst, def) => {
    core.$ZodLiteral.init(inst, def);
    ZodMiniType.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function literal(value, params) {
    return new ZodMiniLiteral({
        type: "literal",
        values: Array.isArray(value) ? value : [value],
        ...util.normalizeParams(params),
    });
}
const ZodMiniFile = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniFile", (inst, def) => {
    core.$ZodFile.init(inst, def);
    ZodMiniType.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function file(params) {
    return core._file(ZodMiniFile, params);
}
const ZodMiniTransform = /*@__PURE__*/ $constructor("ZodMiniTransform", (inst, def) => {
    $ZodTransform.init(inst, def);
    ZodMiniType.init(inst, def);
});
// @__NO_SIDE_EFFECTS__
function transform(fn) {
    return new ZodMiniTransform({
        type: "transform",
        transform: fn,
    });
}
const ZodMiniOptional = /*@__PURE__*/ $constructor("ZodMiniOptional", (inst, def) => {
    $ZodOptional.init(inst, def);
    ZodMiniType.init(inst, def);
});
// @__NO_SIDE_EFFECTS__
function optional(innerType) {
    return new ZodMiniOptional({
        type: "optional",
        innerType: innerType,
    });
}
const ZodMiniExactOptional = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniExactOptional", (inst, def) => {
    core.$ZodExactOptional.init(inst, def);
    ZodMiniType.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function exactOptional(innerType) {
    return new ZodMiniExactOptional({
        type: "optional",
        innerType: innerType,
    });
}
const ZodMiniNullable = /*@__PURE__*/ $constructor("ZodMiniNullable", (inst, def) => {
    $ZodNullable.init(inst, def);
    ZodMiniType.init(inst, def);
});
// @__NO_SIDE_EFFECTS__
function nullable(innerType) {
    return new ZodMiniNullable({
        type: "nullable",
        innerType: innerType,
    });
}
// nullish
// @__NO_SIDE_EFFECTS__
function schemas_nullish(innerType) {
    return optional(nullable(innerType));
}
const ZodMiniDefault = /*@__PURE__*/ $constructor("ZodMiniDefault", (inst, def) => {
    $ZodDefault.init(inst, def);
    ZodMiniType.init(inst, def);
});
// @__NO_SIDE_EFFECTS__
function schemas_default(innerType, defaultValue) {
    return new ZodMiniDefault({
        type: "default",
        innerType: innerType,
        get defaultValue() {
            return typeof defaultValue === "function" ? defaultValue() : shallowClone(defaultValue);
        },
    });
}
const ZodMiniPrefault = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniPrefault", (inst, def) => {
    core.$ZodPrefault.init(inst, def);
    ZodMiniType.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function prefault(innerType, defaultValue) {
    return new ZodMiniPrefault({
        type: "prefault",
        innerType: innerType,
        get defaultValue() {
            return typeof defaultValue === "function" ? defaultValue() : util.shallowClone(defaultValue);
        },
    });
}
const ZodMiniNonOptional = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniNonOptional", (inst, def) => {
    core.$ZodNonOptional.init(inst, def);
    ZodMiniType.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function nonoptional(innerType, params) {
    return new ZodMiniNonOptional({
        type: "nonoptional",
        innerType: innerType,
        ...util.normalizeParams(params),
    });
}
const ZodMiniSuccess = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniSuccess", (inst, def) => {
    core.$ZodSuccess.init(inst, def);
    ZodMiniType.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function success(innerType) {
    return new ZodMiniSuccess({
        type: "success",
        innerType: innerType,
    });
}
const ZodMiniCatch = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniCatch", (inst, def) => {
    core.$ZodCatch.init(inst, def);
    ZodMiniType.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function schemas_catch(innerType, catchValue) {
    return new ZodMiniCatch({
        type: "catch",
        innerType: innerType,
        catchValue: (typeof catchValue === "function" ? catchValue : core.util.constantCatch(catchValue)),
    });
}

const ZodMiniNaN = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniNaN", (inst, def) => {
    core.$ZodNaN.init(inst, def);
    ZodMiniType.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function nan(params) {
    return core._nan(ZodMiniNaN, params);
}
const ZodMiniPipe = /*@__PURE__*/ $constructor("ZodMiniPipe", (inst, def) => {
    $ZodPipe.init(inst, def);
    ZodMiniType.init(inst, def);
});
// @__NO_SIDE_EFFECTS__
function pipe(in_, out) {
    return new ZodMiniPipe({
        type: "pipe",
        in: in_,
        out: out,
    });
}
const ZodMiniCodec = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniCodec", (inst, def) => {
    ZodMiniPipe.init(inst, def);
    core.$ZodCodec.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function codec(in_, out, params) {
    return new ZodMiniCodec({
        type: "pipe",
        in: in_,
        out: out,
        transform: params.decode,
        reverseTransform: params.encode,
    });
}
// @__NO_SIDE_EFFECTS__
function invertCodec(codec) {
    const def = codec._zod.def;
    return new ZodMiniCodec({
        type: "pipe",
        in: def.out,
        out: def.in,
        transform: def.reverseTransform,
        reverseTransform: def.transform,
    });
}
const ZodMiniReadonly = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniReadonly", (inst, def) => {
    core.$ZodReadonly.init(inst, def);
    ZodMiniType.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function readonly(innerType) {
    return new ZodMiniReadonly({
        type: "readonly",
        innerType: innerType,
    });
}
const ZodMiniTemplateLiteral = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniTemplateLiteral", (inst, def) => {
    core.$ZodTemplateLiteral.init(inst, def);
    ZodMiniType.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function templateLiteral(parts, params) {
    return new ZodMiniTemplateLiteral({
        type: "template_literal",
        parts,
        ...util.normalizeParams(params),
    });
}
const ZodMiniLazy = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniLazy", (inst, def) => {
    core.$ZodLazy.init(inst, def);
    ZodMiniType.init(inst, def);
})));
// export function lazy<T extends object>(getter: () => T): T {
//   return util.createTransparentProxy<T>(getter);
// }
// @__NO_SIDE_EFFECTS__
function schemas_lazy(getter) {
    return new ZodMiniLazy({
        type: "lazy",
        getter: getter,
    });
}

const ZodMiniPromise = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniPromise", (inst, def) => {
    core.$ZodPromise.init(inst, def);
    ZodMiniType.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function promise(innerType) {
    return new ZodMiniPromise({
        type: "promise",
        innerType: innerType,
    });
}
const ZodMiniCustom = /*@__PURE__*/ $constructor("ZodMiniCustom", (inst, def) => {
    $ZodCustom.init(inst, def);
    ZodMiniType.init(inst, def);
});
// custom checks
// @__NO_SIDE_EFFECTS__
function check(fn, params) {
    const ch = new core.$ZodCheck({
        check: "custom",
        ...util.normalizeParams(params),
    });
    ch._zod.check = fn;
    return ch;
}
// ZodCustom custom schema
// @__NO_SIDE_EFFECTS__
function custom(fn, _params) {
    return core._custom(ZodMiniCustom, fn ?? (() => true), _params);
}
// refine
// @__NO_SIDE_EFFECTS__
function refine(fn, _params = {}) {
    return _refine(ZodMiniCustom, fn, _params);
}
// superRefine
// @__NO_SIDE_EFFECTS__
function superRefine(fn, params) {
    return _superRefine(fn, params);
}
// Re-export describe and meta from core
const schemas_describe = describe;
const schemas_meta = meta;
// instanceof
class schemas_Class {
    constructor(..._args) { }
}
// @__NO_SIDE_EFFECTS__
function _instanceof(cls, params = {}) {
    const inst = custom((data) => data instanceof cls, params);
    inst._zod.bag.Class = cls;
    // Override check to emit invalid_type instead of custom
    inst._zod.check = (payload) => {
        if (!(payload.value instanceof cls)) {
            payload.issues.push({
                code: "invalid_type",
                expected: cls.name,
                input: payload.value,
                inst,
                path: [...(inst._zod.def.path ?? [])],
            });
        }
    };
    return inst;
}

// stringbool
const stringbool = (...args) => core._stringbool({
    Codec: ZodMiniCodec,
    Boolean: ZodMiniBoolean,
    String: ZodMiniString,
}, ...args);
// @__NO_SIDE_EFFECTS__
function json() {
    const jsonSchema = schemas_lazy(() => {
        return union([schemas_string(), schemas_number(), schemas_boolean(), schemas_null(), array(jsonSchema), record(schemas_string(), jsonSchema)]);
    });
    return jsonSchema;
}
const ZodMiniFunction = /*@__PURE__*/ (/* unused pure expression or super */ null && (core.$constructor("ZodMiniFunction", (inst, def) => {
    core.$ZodFunction.init(inst, def);
    ZodMiniType.init(inst, def);
})));
// @__NO_SIDE_EFFECTS__
function _function(params) {
    return new ZodMiniFunction({
        type: "function",
        input: Array.isArray(params?.input) ? tuple(params?.input) : (params?.input ?? array(unknown())),
        output: params?.output ?? unknown(),
    });
}


;// CONCATENATED MODULE: ./src/api/schemas.ts
/**
 * The API's resources, as zod schemas that keep every field they do not name.
 * Only `id` is required: the API document leaves most fields unspecified.
 */

const id = pipe(union([schemas_string().check(_minLength(1)), schemas_number()]), transform(String));
const CheckSchema = looseObject({
    id,
    name: schemas_nullish(schemas_string()),
    url: schemas_nullish(schemas_string()),
    type: schemas_nullish(schemas_string()),
    interval: schemas_nullish(schemas_number()),
    alertChannels: schemas_nullish(array(schemas_string())),
    status: schemas_nullish(schemas_string()),
    lastCheckedAt: schemas_nullish(schemas_string()),
    responseTime: schemas_nullish(schemas_number())
});
const IncidentSchema = looseObject({
    id,
    title: schemas_nullish(schemas_string()),
    message: schemas_nullish(schemas_string()),
    status: schemas_nullish(schemas_string()),
    createdAt: schemas_nullish(schemas_string()),
    updatedAt: schemas_nullish(schemas_string())
});
const StatusPageSchema = looseObject({
    id,
    name: schemas_nullish(schemas_string())
});
const HistoryEntrySchema = looseObject({
    status: schemas_nullish(schemas_string()),
    responseTime: schemas_nullish(schemas_number()),
    checkedAt: schemas_nullish(schemas_string())
});
/** Fields the server owns: never sent back in a PUT. */
const READ_ONLY_FIELDS = ['id', 'lastCheckedAt', 'responseTime', 'createdAt', 'updatedAt'];

;// CONCATENATED MODULE: ./src/api/monitoring.ts
/**
 * One method per endpoint of the monitoring API (seed document), on top of
 * the generic client. Ids are always path-encoded.
 */



/** An id that would address another path (empty, "." or ".."): refused before any request. */
class UnsafeIdError extends Error {
    constructor(id) {
        super(`the server gave a resource the id ${JSON.stringify(id)}: ${idProblem(id)}; no request was sent to it`);
        this.name = 'UnsafeIdError';
    }
}
/** An id as one path segment: percent-encoded; empty, "." and ".." are refused (encoding keeps dots). */
function seg(id) {
    if (idProblem(id))
        throw new UnsafeIdError(id);
    return encodeURIComponent(id);
}
/** Every path of the API, ids encoded: for requests, and for the messages and dry-run lines that name them. */
const paths = {
    checks: '/checks',
    check: (id) => `/checks/${seg(id)}`,
    history: (id) => `/checks/${seg(id)}/history`,
    incidents: '/incidents',
    incident: (id) => `/incidents/${seg(id)}`,
    statusPages: '/status-pages',
    statusPage: (id) => `/status-pages/${seg(id)}`
};
const ids = (items) => new Set(items.map(i => i.id));
class MonitoringApi {
    client;
    constructor(client) {
        this.client = client;
    }
    /**
     * The same API, whose waits (retries, pacing) never pass `deadline` (ms since
     * the epoch); `hard`: nor its requests (none sent after it, one in flight cut off).
     */
    withDeadline(deadline, hard = false) {
        return new MonitoringApi(this.client.withDeadline(deadline, hard));
    }
    /**
     * The same API whose lists follow up to `pages` pages rather than the usual
     * 100: for a read bounded otherwise (a history window, under a hard deadline).
     */
    withMaxPages(pages) {
        const client = Object.assign(Object.create(Object.getPrototypeOf(this.client)), this.client, {
            maxPages: pages
        });
        return new MonitoringApi(client);
    }
    listChecks() {
        return this.client.list(paths.checks, CheckSchema, 'check');
    }
    getCheck(id) {
        return this.client.getOrNull(paths.check(id), CheckSchema, 'a check');
    }
    /** `existing` is the list read before the create (what was there before). */
    async createCheck(body, existing) {
        return createResource(this.client, paths.checks, body, CheckSchema, 'check', {
            before: ids(existing),
            matches: c => c.name === body.name && c.url === body.url
        });
    }
    updateCheck(id, body) {
        return this.client.put(paths.check(id), body, CheckSchema, 'a check');
    }
    /** False when the check was already gone. */
    deleteCheck(id) {
        return this.client.delete(paths.check(id));
    }
    /**
     * A check's history: every page; with `from` (ms since the epoch), the pages
     * stop once one is wholly older than it, while the pages read list the
     * entries newest first (see `newestFirstUntil`). Entries older than `from`
     * may still be in the answer: the caller filters.
     */
    checkHistory(id, from) {
        const enough = from === undefined ? undefined : newestFirstUntil(from);
        return this.client.list(paths.history(id), HistoryEntrySchema, 'history entry', enough);
    }
    listIncidents() {
        return this.client.list(paths.incidents, IncidentSchema, 'incident');
    }
    createIncident(body, existing) {
        return createResource(this.client, paths.incidents, body, IncidentSchema, 'incident', {
            before: ids(existing),
            matches: i => i.title === body.title
        });
    }
    updateIncident(id, body) {
        return this.client.put(paths.incident(id), body, IncidentSchema, 'an incident');
    }
    listStatusPages() {
        return this.client.list(paths.statusPages, StatusPageSchema, 'status page');
    }
    createStatusPage(body, existing) {
        return createResource(this.client, paths.statusPages, body, StatusPageSchema, 'status page', {
            before: ids(existing),
            matches: p => p.name === body.name
        });
    }
    getStatusPage(id) {
        return this.client.getOrNull(paths.statusPage(id), StatusPageSchema, 'a status page');
    }
}
/**
 * When a history read may stop: the document says nothing of the order, so
 * the pages are checked as they come. While every entry read so far has a
 * `checkedAt` no later than the one before it (newest first, as the service
 * lists them), a page whose entries are all older than `from` ends the read:
 * the pages after it are older still. An entry out of that order, or without
 * a `checkedAt`, means the order is not known: every page is read.
 */
function newestFirstUntil(from) {
    let last = Number.POSITIVE_INFINITY;
    let ordered = true;
    return page => {
        for (const entry of page) {
            const at = timeOf(entry.checkedAt);
            if (at <= last)
                last = at;
            else
                ordered = false;
        }
        return ordered && page.length > 0 && timeOf(page[0].checkedAt) < from;
    };
}

;// CONCATENATED MODULE: ./src/operations/common.ts

/** JSON with sorted keys, so that equal values print equal. */
function canonical(value) {
    return JSON.stringify(value, (_key, v) => v && typeof v === 'object' && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
        : v);
}
/** A field's value normalised for comparing: `type` defaults to http, channel lists are sets. */
function normal(field, value) {
    if (field === 'type' && (value === undefined || value === null))
        return canonical('http');
    if (field === 'alertChannels') {
        const list = Array.isArray(value) ? value : [];
        return canonical([...new Set(list.map(String))].sort());
    }
    return canonical(value ?? null);
}
/** The fields of `wanted` whose values differ in `current`. */
function differences(wanted, current) {
    return Object.keys(wanted).filter(field => normal(field, wanted[field]) !== normal(field, current[field]));
}
/**
 * A resource's own settings as one comparable string: its writable fields,
 * normalised as `differences` compares them, absent and null alike, less the
 * fields in `ignore`. Equal signatures: nothing a user set tells them apart.
 */
function signature(resource, ignore = []) {
    const fields = Object.entries(writableOf(resource))
        .filter(([field, value]) => !ignore.includes(field) && value !== undefined && value !== null)
        .map(([field, value]) => [field, normal(field, value)])
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return JSON.stringify(fields);
}
/** A resource without the fields the server owns: what a PUT sends back. */
function writableOf(resource) {
    const out = {};
    for (const [key, value] of Object.entries(resource)) {
        if (!READ_ONLY_FIELDS.includes(key))
            out[key] = value;
    }
    return out;
}
/** A check body for a create: `type` defaults to http. */
function withDefaultType(spec) {
    return spec.type === undefined ? { ...spec, type: 'http' } : spec;
}
/**
 * Log a write that dry-run will not send. Returns true when in dry-run (the
 * caller then skips the request).
 */
function dryRunSkips(ctx, method, path, body) {
    if (!ctx.config.dryRun)
        return false;
    ctx.log.info(`[dry-run] would send ${method} ${path}${body === undefined ? '' : ` ${JSON.stringify(body)}`}`);
    return true;
}
const str = (value) => (value === undefined || value === null ? '' : String(value));

;// CONCATENATED MODULE: ./src/operations/converge.ts

/** Most rounds of look-and-remove after one create (each round after the first confirms the last). */
const MAX_ROUNDS = 3;
const createdTime = (item) => {
    const time = timeOf(item.createdAt);
    return Number.isNaN(time) ? Number.POSITIVE_INFINITY : time;
};
/** Survival order: the earliest createdAt first (none: last), then the smallest id in code-unit order. */
function bySurvival(a, b) {
    const byTime = createdTime(a) - createdTime(b);
    if (byTime !== 0 && !Number.isNaN(byTime))
        return byTime;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
/** Convergence order after a confirmed miss: the smallest id in code-unit order (the contract's rule). */
function byId(a, b) {
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
/** Most full reads of a collection before a create (the first look included). */
const MAX_READS = 3;
/**
 * Do two full reads of a collection agree? Every id the earlier read showed
 * is in the later one. A row that vanished means something was deleted while
 * the reads ran, which is what makes an offset page skip a row; ids that only
 * the later read shows are creates (or a row the earlier read skipped, that
 * the later one found), which a miss confirmed by name takes into account.
 */
function readsAgree(earlier, later) {
    const ids = new Set(later.map(item => item.id));
    return earlier.every(item => ids.has(item.id));
}
/**
 * Confirm a miss: `first` (a full read) did not find some name. Read the
 * whole collection again; stop when that read finds every name sought
 * (`found`), or agrees with the read before it; else read once more (at most
 * three reads in all). A name the last read still misses is absent for sure
 * when `agreed`; otherwise the reads never agreed and a create is not proof
 * that same-named ones are racing creates.
 */
async function confirmMiss(first, read, found) {
    let earlier = first;
    for (let reads = 2;; reads++) {
        const later = await read();
        const agreed = readsAgree(earlier, later);
        if (agreed || found(later) || reads >= MAX_READS)
            return { list: later, agreed, reads };
        earlier = later;
    }
}
/** The items once each: the same id listed twice (a list that shifted between pages) is one resource. */
function uniqueById(items) {
    const seen = new Set();
    return items.filter(item => (seen.has(item.id) ? false : (seen.add(item.id), true)));
}
/** The first of several same-named resources in survival order. */
function survivorOf(items) {
    return [...uniqueById(items)].sort(bySurvival)[0];
}
/**
 * Can a run that created `mine` prove `other` did not exist before it started?
 * Its own create, yes; another, only when both carry `createdAt` and the
 * other's is later than its own (so it was made after this run's create).
 */
function provablyNewer(other, mine) {
    if (other.id === mine.id)
        return true;
    const theirs = timeOf(other.createdAt);
    const ours = timeOf(mine.createdAt);
    return Number.isFinite(theirs) && Number.isFinite(ours) && theirs > ours;
}
/**
 * How long to wait after a create before looking again: creates that other
 * runs sent before ours landed take about as long as ours did, so wait that
 * long and half as much again (at least 250 ms), never more than `capMs`.
 */
function settleMs(createTookMs, capMs) {
    return Math.min(capMs, Math.round(createTookMs * 1.5) + 250);
}
/**
 * After creating `created` (this run's new resources, each with the name and
 * fields it was created with), remove what this run can prove are duplicates
 * made by racing runs. Returns, for each of `created` in order, the survivor
 * of its kind and what was kept.
 */
async function convergeCreated(created, options) {
    const { nameOf, kindOf } = options;
    const result = created.map(mine => ({ survivor: mine, removed: [], kept: [], others: [] }));
    const gone = new Set();
    if (created.length === 0)
        return result;
    await options.sleep(options.settleMs);
    for (let round = 1; round <= MAX_ROUNDS; round++) {
        const named = new Map();
        for (const item of uniqueById(await options.list())) {
            const name = nameOf(item);
            if (name === undefined || gone.has(item.id))
                continue;
            named.set(name, [...(named.get(name) ?? []), item]);
        }
        let removedNow = 0;
        let keptNow = 0;
        for (const [index, mine] of created.entries()) {
            const all = [...(named.get(nameOf(mine) ?? '') ?? [])];
            // The first look may come before the list shows our create: it is there all the same.
            // Later looks are trusted (another run may have removed ours meanwhile).
            if (round === 1 && !all.some(i => i.id === mine.id))
                all.push(mine);
            const kind = kindOf(mine);
            const same = all.filter(i => kindOf(i) === kind);
            if (same.length === 0)
                continue; // everything of this kind is gone (removed by hand): keep what we knew
            const survivor = options.confirmed ? [...same].sort(byId)[0] : survivorOf(same);
            const removed = [...result[index].removed];
            const kept = [];
            for (const duplicate of same) {
                if (duplicate.id === survivor.id)
                    continue;
                if (!options.confirmed && (options.recovered?.has(mine.id) || !provablyNewer(duplicate, mine))) {
                    kept.push(duplicate);
                    continue;
                }
                await options.remove(duplicate, survivor);
                gone.add(duplicate.id);
                removed.push(duplicate.id);
                removedNow++;
            }
            keptNow += kept.length;
            result[index] = { survivor, removed, kept, others: all.filter(i => kindOf(i) !== kind) };
        }
        if (removedNow === 0 && keptNow === 0)
            break;
        // Kept ones may be the creates of racing runs that have yet to remove their own: give them the time.
        if (removedNow === 0 && round < MAX_ROUNDS)
            await options.sleep(options.settleMs);
        if (round === 1) {
            options.log.info(`Concurrent runs created the same ${options.what}: removed ${removedNow} duplicate(s) made by them; looking once more to confirm.`);
        }
    }
    return result;
}
/** The log line for resources a run kept because it could not prove them new; empty when none. */
function keptLine(what, survivor, kept) {
    if (kept.length === 0)
        return '';
    const ids = kept.map(k => k.id).join(', ');
    return `Also found ${kept.length} other identical ${what}(s) of this name (${ids}) that this run cannot prove were created by a concurrent run (without createdAt, or created before this run's own, it may have existed before): kept, not removed. ${survivor.id} is used; remove the one you do not want yourself (by id).`;
}
/** Said when the reads before a create never agreed (confirmMiss): the create then proves nothing about same-named ones. */
function unagreedLine(what, reads) {
    return `The ${reads} full reads of the ${what}s did not agree (some were removed while they were read, so a page may have skipped a row): the create goes ahead, and a ${what} of the same name found afterwards is kept, not removed, and named.`;
}

;// CONCATENATED MODULE: ./src/operations/types.ts
/** An error that carries what was known when it happened (outputs, summary). */
class OperationError extends Error {
    outputs;
    summary;
    constructor(message, outputs = {}, summary) {
        super(message);
        this.outputs = outputs;
        this.summary = summary;
        this.name = 'OperationError';
    }
}
/**
 * Run `fn`; if it fails, fail with the same message and with `outputs` (what is
 * already known, such as the target's id) so the step reports them too.
 */
async function withKnownOutputs(outputs, fn) {
    try {
        return await fn();
    }
    catch (error) {
        if (error instanceof OperationError) {
            throw new OperationError(error.message, { ...outputs, ...error.outputs }, error.summary);
        }
        throw new OperationError(error instanceof Error ? error.message : String(error), outputs);
    }
}

;// CONCATENATED MODULE: ./src/operations/by-prefix.ts
/**
 * A fleet by name prefix (`name-prefix` on pause-check, resume-check,
 * wait-for-check and delete-check): every check whose name starts with it,
 * taken from one full list read at the step's start. Nothing matching is an
 * error naming the prefix and the names nearest to it, before any write.
 */





/**
 * Every check of `all` whose name starts with `prefix` (case counts), each id
 * once, in list order; same-named checks are all included. None is an error.
 */
function byPrefix(all, prefix) {
    const matches = uniqueById(all.filter(c => str(c.name).startsWith(prefix)));
    // Refused here, not only where a path is built: a dry run would list it as a target.
    for (const check of matches)
        if (idProblem(check.id))
            throw new UnsafeIdError(check.id);
    if (matches.length === 0)
        throw new OperationError(noMatch(prefix, all));
    return matches;
}
/** "no check name starts with "shpo-" (looked through 3 checks; the nearest names: ...)". */
function noMatch(prefix, all) {
    const checks = uniqueById(all);
    const near = nearestNames(prefix, checks.map(c => str(c.name)));
    const nearest = near.length > 0
        ? `; the nearest names: ${near.map(n => JSON.stringify(n)).join(', ')}`
        : checks.length === 0
            ? ''
            : '; no check has a name';
    return `no check name starts with name-prefix ${JSON.stringify(prefix)} (looked through ${checks.length} checks${nearest}); nothing was changed`;
}
/** Prefixes longer than this are not compared (the cost grows with its length times the list's). */
const MAX_COMPARED = 200;
/**
 * The names whose start is nearest to `prefix` (case aside): the fewest edits
 * from the prefix to the name's first characters (as many as the prefix has,
 * one fewer or one more), then by name. Always some when there are names.
 */
function nearestNames(prefix, names, limit = 3) {
    const p = prefix.toLowerCase().slice(0, MAX_COMPARED);
    const scored = [];
    for (const name of new Set(names.filter(n => n !== ''))) {
        const n = name.toLowerCase();
        let best = Number.POSITIVE_INFINITY;
        for (const length of [p.length - 1, p.length, p.length + 1]) {
            if (length >= 0)
                best = Math.min(best, editDistance(p, n.slice(0, length)));
        }
        scored.push([name, best]);
    }
    return scored
        .sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
        .slice(0, limit)
        .map(([name]) => name);
}
/** One line about what a prefix selected, for the log and the summary. */
function prefixLine(prefix, matches) {
    return `name-prefix ${JSON.stringify(prefix)} selects ${matches.length} check(s), from one list read at the start.`;
}

;// CONCATENATED MODULE: ./src/operations/check-targets.ts
/**
 * What every check operation shares: finding the targeted checks (by id, or
 * by name; identical duplicates are warned about, never removed), the check
 * outputs and summary table, and converging with concurrent creates.
 */






const PAUSED = 'paused';
const isPaused = (c) => str(c.status).toLowerCase() === PAUSED;
function checkOutputs(check) {
    if (!check)
        return {};
    return {
        'check-id': str(check.id),
        'check-name': str(check.name),
        'check-status': str(check.status),
        'response-time': str(check.responseTime),
        'last-checked-at': str(check.lastCheckedAt)
    };
}
function checksTable(checks, extra) {
    const head = ['Check', 'ID', 'URL', 'Status', 'Response time (ms)', 'Last checked'];
    if (extra)
        head.push(extra.head);
    return {
        head,
        rows: checks.map(c => {
            const row = [c.name, c.id, c.url, c.status, c.responseTime, c.lastCheckedAt];
            if (extra)
                row.push(extra.value(c));
            return row;
        })
    };
}
function checkSummary(title, checks, lines = []) {
    return { title, lines, tables: checks.length > 0 ? [checksTable(checks)] : [] };
}
/** What a check monitors: its URL and type. Same-named checks that differ in it are never duplicates. */
const monitored = (c) => JSON.stringify([str(c.url), str(c.type) || 'http']);
/**
 * Identical checks, as concurrent runs of this action make them: every
 * writable field the same (type defaulting to http), and paused or not alike.
 * The status the service measures (up, down) does not tell them apart.
 */
const sameSettings = (c) => JSON.stringify([signature(withDefaultType(c), ['status']), statusSetting(c)]);
/** Statuses the service measures; any other (paused, disabled, ...) was set by someone and must match. */
const MEASURED_STATUSES = ['', 'up', 'down', 'pending'];
const statusSetting = (c) => {
    const status = str(c.status).toLowerCase();
    return MEASURED_STATUSES.includes(status) ? '' : status;
};
/**
 * The check named `name` in a list. The same id listed twice is one check.
 * Several identical ones (see sameSettings) are used as one: the first in
 * survival order (converge.ts) is the check, the others are named in a
 * warning and never removed: they existed before this step. Several that
 * differ are an error naming them and what differs.
 */
function findByName(checks, name, where = '') {
    const matches = uniqueById(checks.filter(c => c.name === name));
    // Refused here, not only where a path is built: a read (get-check) would output it as check-id.
    for (const check of matches)
        if (idProblem(check.id))
            throw new UnsafeIdError(check.id);
    if (matches.length <= 1)
        return { check: matches[0], duplicates: [] };
    const check = survivorOf(matches);
    const duplicates = matches.filter(c => c.id !== check.id);
    if (duplicates.every(c => sameSettings(c) === sameSettings(check)))
        return { check, duplicates };
    const differ = new Set(duplicates.flatMap(c => [...differences(writableOf(c), check), ...differences(writableOf(check), c)]));
    throw new OperationError(`${matches.length} checks${where} are named ${JSON.stringify(name)} (${matches.map(c => c.id).join(', ')}) and they differ (${[...differ].join(', ') || 'status'}), so the action will not choose between them; delete all but one, or target one with check-id`);
}
/** What is said about identical checks of one name: which one is used, and that the others stay. */
function duplicatesLine(named) {
    const { check, duplicates } = named;
    if (!check || duplicates.length === 0)
        return '';
    return `${duplicates.length + 1} identical checks are named ${JSON.stringify(str(check.name))}: using ${check.id}; the others (${duplicates.map(c => c.id).join(', ')}) are left as they are, since they may have existed before this step and the action never deletes those. Delete the ones you do not want with delete-check and check-id.`;
}
/** Warn about identical checks of one name (see duplicatesLine). Returns the line for the summary, if any. */
function warnDuplicates(ctx, named) {
    const line = duplicatesLine(named);
    if (line)
        ctx.log.warning(line);
    return line ? [line] : [];
}
/** The check that check-id (or else the single check-name) targets; identical duplicates are warned about. */
async function targetCheck(ctx) {
    const { checkIds, checkNames } = ctx.config;
    if (checkIds.length > 0) {
        const check = await ctx.api.getCheck(checkIds[0]);
        if (!check)
            throw new OperationError(`check ${checkIds[0]} not found (GET ${paths.check(checkIds[0])} answered 404)`);
        return { check, notes: [] };
    }
    const all = await ctx.api.listChecks();
    const named = findByName(all, checkNames[0]);
    if (!named.check) {
        throw new OperationError(`no check named ${JSON.stringify(checkNames[0])} (looked through ${all.length} checks)${didYouMean(checkNames[0], all.map(c => str(c.name)))}`);
    }
    return { check: named.check, notes: warnDuplicates(ctx, named) };
}
/**
 * Every check that check-id and check-name (lists) and name-prefix target;
 * names and the prefix are looked up in one list read. Identical duplicates
 * are warned about.
 */
async function targetChecks(ctx) {
    const { checkIds, checkNames, namePrefix } = ctx.config;
    const found = [];
    const notes = [];
    for (const id of checkIds) {
        const check = await ctx.api.getCheck(id);
        if (!check)
            throw new OperationError(`check ${id} not found (GET ${paths.check(id)} answered 404)`);
        found.push(check);
    }
    if (checkNames.length > 0 || namePrefix !== undefined) {
        const all = await ctx.api.listChecks();
        const missing = [];
        const named = [];
        for (const name of checkNames) {
            const one = findByName(all, name);
            if (one.check)
                named.push(one);
            else
                missing.push(name);
        }
        if (missing.length > 0) {
            const near = missing
                .map(name => didYouMean(name, all.map(c => str(c.name))))
                .join('');
            throw new OperationError(`no check named ${missing.map(name => JSON.stringify(name)).join(', ')} (looked through ${all.length} checks)${near}`);
        }
        for (const one of named) {
            notes.push(...warnDuplicates(ctx, one));
            found.push(one.check);
        }
        if (namePrefix !== undefined)
            notes.push(prefixNote(ctx, namePrefix, all, found));
    }
    return { checks: uniqueById(found), notes };
}
/** Add the checks `prefix` selects to `found` (nothing matching throws); the line that says so. */
function prefixNote(ctx, prefix, all, found) {
    const matches = byPrefix(all, prefix);
    found.push(...matches);
    const line = prefixLine(prefix, matches);
    ctx.log.info(line);
    return line;
}
/** Converge this run's new checks with any that concurrent runs created under the same names (converge.ts). */
function convergeChecks(ctx, created, createTookMs, recovered = new Set(), confirmed = false) {
    return convergeCreated(created, {
        recovered,
        confirmed,
        what: 'check',
        list: () => ctx.api.listChecks(),
        nameOf: c => (typeof c.name === 'string' ? c.name : undefined),
        kindOf: monitored,
        remove: async (duplicate) => {
            await ctx.api.deleteCheck(duplicate.id);
        },
        sleep: ms => ctx.clock.sleep(ms, ctx.signal),
        settleMs: settleMs(createTookMs, ctx.config.requestTimeoutMs),
        log: ctx.log
    });
}

;// CONCATENATED MODULE: ./src/operations/checks/delete-prefix.ts
/**
 * delete-check with name-prefix: every check whose name starts with it, with
 * the check-id / check-name check if given, resolved from one list read before
 * any write; more than max-deletions is refused whole; a check already gone
 * (a 404, a name no check has) is no error.
 */






/** How many checks an error message names; the summary's table has them all. */
const NAMED_IN_MESSAGE = 20;
const described = (checks) => {
    const shown = checks.slice(0, NAMED_IN_MESSAGE).map(c => `${c.id} (${JSON.stringify(str(c.name))})`);
    const more = checks.length - shown.length;
    return `${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
};
/** The targets, in order: the check-id check, the check-name check (and its identical duplicates), the prefix's. */
async function targets(ctx, prefix) {
    const { checkIds, checkNames } = ctx.config;
    const found = [];
    const notes = [];
    for (const id of checkIds) {
        const check = await ctx.api.getCheck(id);
        if (check)
            found.push(check);
        else
            notes.push(`Check ${id} does not exist: nothing to delete for check-id.`);
    }
    const all = await ctx.api.listChecks();
    for (const name of checkNames) {
        const named = findByName(all, name);
        if (named.check)
            found.push(named.check, ...named.duplicates);
        else
            notes.push(`No check named ${JSON.stringify(name)}: nothing to delete for check-name.`);
    }
    const matches = byPrefix(all, prefix);
    found.push(...matches);
    notes.unshift(prefixLine(prefix, matches));
    return { checks: uniqueById(found), notes };
}
async function deleteByPrefix(ctx) {
    const { maxDeletions, dryRun } = ctx.config;
    const prefix = ctx.config.namePrefix;
    const { checks, notes } = await targets(ctx, prefix);
    for (const note of notes)
        ctx.log.info(note);
    if (checks.length > maxDeletions) {
        const message = `delete-check refused: ${checks.length} checks are targeted (${described(checks)}), more than max-deletions (${maxDeletions}). Nothing was deleted. If these deletes are meant, raise max-deletions for this run; else make name-prefix narrower (end it with a separator: pr-12- never matches pr-123-web)`;
        throw new OperationError(message, { changed: false }, checkSummary('delete-check refused', checks, [message]));
    }
    if (dryRun) {
        for (const check of checks)
            dryRunSkips(ctx, 'DELETE', paths.check(check.id));
        return {
            outputs: { ...checkOutputs(checks[0]), changed: true, deleted: checks.length, result: checks },
            summary: checkSummary(`Checks would be deleted (dry run): ${checks.length}`, checks, notes)
        };
    }
    const deleted = [];
    const gone = [];
    for (const [i, check] of checks.entries()) {
        const known = () => ({
            ...checkOutputs(checks[0]),
            changed: deleted.length > 0,
            deleted: deleted.length,
            result: deleted
        });
        const stop = (why) => {
            const left = checks.slice(i);
            const message = `${why} (deleted: ${deleted.length > 0 ? described(deleted) : 'none'}; not deleted: ${described(left)})`;
            throw new OperationError(message, known(), checkSummary('delete-check stopped half-way', deleted, [message]));
        };
        if (ctx.signal.aborted)
            stop('delete-check was cancelled');
        try {
            if (await ctx.api.deleteCheck(check.id))
                deleted.push(check);
            else
                gone.push(check);
        }
        catch (error) {
            stop(error instanceof Error ? error.message : String(error));
        }
    }
    const lines = [
        ...notes,
        deleted.length > 0 ? `Deleted ${deleted.length}: ${described(deleted)}.` : 'Nothing was deleted.',
        ...(gone.length > 0 ? [`Already gone (deleted meanwhile): ${described(gone)}.`] : [])
    ];
    ctx.log.info(lines.slice(notes.length).join(' '));
    return {
        outputs: { ...checkOutputs(checks[0]), changed: deleted.length > 0, deleted: deleted.length, result: checks },
        summary: checkSummary(deleted.length > 0 ? `Checks deleted: ${deleted.length}` : 'Checks already gone', checks, lines)
    };
}

;// CONCATENATED MODULE: ./src/operations/checks/checks.ts
/**
 * Check operations: create, get, list, update, upsert, delete. Each returns
 * outputs and a summary; none reads inputs or writes outputs itself. Pausing
 * is in pause.ts, history in history.ts, targeting in check-targets.ts, a
 * delete by name-prefix in delete-prefix.ts.
 */






/** The wanted fields of an update: the spec, without the name when the name is the target. */
function wantedChanges(ctx) {
    const wanted = { ...ctx.config.check };
    if (ctx.config.checkIds.length === 0)
        delete wanted.name;
    return wanted;
}
/** PUT the whole writable check merged with `changes`, unless nothing differs. */
async function applyChanges(ctx, current, changes) {
    const fields = differences(changes, current);
    if (fields.length === 0)
        return { check: current, changed: false, fields };
    const body = { ...writableOf(current), ...changes };
    if (dryRunSkips(ctx, 'PUT', paths.check(current.id), body))
        return { check: { ...current, ...changes }, changed: true, fields };
    const updated = await withKnownOutputs(checkOutputs(current), () => ctx.api.updateCheck(current.id, body));
    return { check: updated, changed: true, fields };
}
async function create(ctx, spec, existing, converge) {
    const body = withDefaultType(spec);
    const before = existing ?? (await ctx.api.listChecks());
    if (dryRunSkips(ctx, 'POST', paths.checks, body)) {
        return {
            outputs: { result: body, changed: true, 'check-name': str(body.name) },
            summary: checkSummary('Check would be created (dry run)', [body])
        };
    }
    const { item, recovered, tookMs } = await ctx.api.createCheck(body, before);
    ctx.log.info(`Created check ${item.id} (${str(item.name)})${recovered ? ', found after an ambiguous failure' : ''}`);
    if (!converge) {
        return {
            outputs: { ...checkOutputs(item), result: item, changed: true },
            summary: checkSummary('Check created', [item])
        };
    }
    // Ours as created: the fields sent, with what the server answered over them.
    const mine = { ...body, ...item };
    const { survivor, removed, kept: unproven, others } = await withKnownOutputs({ ...checkOutputs(mine), changed: true }, () => convergeChecks(ctx, [mine], tookMs, new Set(recovered ? [item.id] : []), converge.confirmed)).then(([converged]) => converged);
    const lines = [];
    let kept = survivor;
    if (survivor.id !== item.id) {
        const line = converge.confirmed
            ? `A concurrent run created a check of this name and URL at the same time: using ${survivor.id}, the smallest id (every run uses it); this run's ${item.id} was removed.`
            : `Another check of this name and URL was there at the same time (created by a concurrent run, or missed by the look): using ${survivor.id}, the first in order; this run's ${item.id} was removed.`;
        ctx.log.info(line);
        lines.push(line);
        const fields = differences(body, survivor);
        if (fields.length > 0)
            kept = (await applyChanges(ctx, survivor, body)).check;
    }
    else if (removed.length > 0) {
        lines.push(`Concurrent runs created the same check: kept this one, the first in order; removed theirs, ${removed.join(', ')}.`);
    }
    const keptNote = keptLine('check', survivor, unproven);
    if (keptNote) {
        ctx.log.warning(keptNote);
        lines.push(keptNote);
    }
    if (others.length > 0) {
        throw new OperationError(`${others.length} other check(s) named ${JSON.stringify(str(item.name))} were created at the same time with another URL or type (${others.map(c => `${c.id}: ${str(c.url)}`).join(', ')}); none was removed, and name targeting fails until all but one are deleted`, { ...checkOutputs(kept), changed: true });
    }
    return {
        outputs: { ...checkOutputs(kept), result: kept, changed: true },
        summary: checkSummary('Check created', [kept], lines)
    };
}
const createCheck = ctx => create(ctx, ctx.config.check);
const getCheck = async (ctx) => {
    const { check } = await targetCheck(ctx);
    return { outputs: { ...checkOutputs(check), result: check }, summary: checkSummary('Check', [check]) };
};
const listChecks = async (ctx) => {
    const prefix = ctx.config.namePrefix;
    const all = await ctx.api.listChecks();
    const checks = prefix === undefined ? all : all.filter(c => str(c.name).startsWith(prefix));
    const scope = prefix === undefined ? '' : ` whose names start with ${JSON.stringify(prefix)}`;
    return {
        outputs: { ...checkOutputs(checks[0]), result: checks, count: checks.length },
        summary: checkSummary(`Checks (${checks.length})${scope}`, checks)
    };
};
function changedLine(changed, fields, dryRun) {
    if (!changed)
        return 'Nothing differs: no request sent.';
    return `${dryRun ? 'Would change' : 'Changed'}: ${fields.join(', ')}.`;
}
/** Apply `changes` to `current` and describe what happened, after `notes` (identical duplicates left). */
async function update(ctx, current, changes, notes = []) {
    const { check, changed, fields } = await applyChanges(ctx, current, changes);
    const lines = [...notes, changedLine(changed, fields, ctx.config.dryRun)];
    return {
        outputs: { ...checkOutputs(check), result: check, changed },
        summary: checkSummary(changed ? 'Check updated' : 'Check unchanged', [check], lines)
    };
}
const updateCheck = async (ctx) => {
    const { check, notes } = await targetCheck(ctx);
    return update(ctx, check, wantedChanges(ctx), notes);
};
const upsertCheck = async (ctx) => {
    const spec = ctx.config.check;
    if (ctx.config.checkIds.length > 0) {
        const { check } = await targetCheck(ctx);
        return update(ctx, check, withDefaultType(spec));
    }
    const name = String(spec.name);
    const first = await ctx.api.listChecks();
    let named = findByName(first, name);
    if (!named.check) {
        // A miss is confirmed by a second full read before anything is created (converge.ts).
        const read = await confirmMiss(first, () => ctx.api.listChecks(), list => list.some(c => c.name === name));
        named = findByName(read.list, name);
        if (!named.check) {
            if (!read.agreed)
                ctx.log.info(unagreedLine('check', read.reads));
            return create(ctx, spec, read.list, { confirmed: read.agreed });
        }
        ctx.log.info(`The first read of the checks did not show ${JSON.stringify(name)}; the next read did (the list shifted while it was read): using ${named.check.id}, nothing created.`);
    }
    return update(ctx, named.check, withDefaultType(spec), warnDuplicates(ctx, named));
};
const deleteCheck = async (ctx) => {
    if (ctx.config.namePrefix !== undefined)
        return deleteByPrefix(ctx);
    const { checkIds, checkNames } = ctx.config;
    let target;
    let duplicates = [];
    let id = checkIds[0];
    if (!id) {
        const all = await ctx.api.listChecks();
        ({ check: target, duplicates } = findByName(all, checkNames[0]));
        if (!target) {
            ctx.log.info(`No check named ${JSON.stringify(checkNames[0])}: nothing to delete.`);
            return {
                outputs: { changed: false, result: null, 'check-name': checkNames[0] },
                summary: checkSummary('Check already gone', [], [`No check named ${checkNames[0]}: nothing to delete.`])
            };
        }
        id = target.id;
    }
    else if (ctx.config.dryRun) {
        target = (await ctx.api.getCheck(id)) ?? undefined;
        if (!target) {
            return {
                outputs: { changed: false, result: null, 'check-id': id },
                summary: checkSummary('Check already gone', [], [`Check ${id} does not exist: nothing to delete.`])
            };
        }
    }
    // Identical duplicates left by concurrent runs are the same check: they go with it.
    const alsoDuplicates = duplicates.length > 0 ? [`Identical duplicates, deleted with it: ${duplicates.map(c => c.id).join(', ')}.`] : [];
    if (dryRunSkips(ctx, 'DELETE', paths.check(id))) {
        for (const duplicate of duplicates)
            dryRunSkips(ctx, 'DELETE', paths.check(duplicate.id));
        return {
            outputs: { ...checkOutputs(target), changed: true, result: target ?? null },
            summary: checkSummary('Check would be deleted (dry run)', target ? [target, ...duplicates] : [], alsoDuplicates)
        };
    }
    const targetId = id;
    let deleted = await withKnownOutputs(checkOutputs(target ?? { id }), () => ctx.api.deleteCheck(targetId));
    for (const duplicate of duplicates) {
        if (await withKnownOutputs(checkOutputs(target), () => ctx.api.deleteCheck(duplicate.id)))
            deleted = true;
    }
    ctx.log.info(deleted ? `Deleted check ${id}.` : `Check ${id} was already gone.`);
    if (alsoDuplicates.length > 0)
        ctx.log.info(alsoDuplicates[0]);
    return {
        outputs: { ...checkOutputs(target ?? { id }), changed: deleted, result: target ?? { id } },
        summary: checkSummary(deleted ? 'Check deleted' : 'Check already gone', target ? [target, ...duplicates] : [], [
            deleted ? `Deleted ${id}.` : `Check ${id} did not exist: nothing to delete.`,
            ...alsoDuplicates
        ])
    };
};

;// CONCATENATED MODULE: ./src/operations/gate/stats.ts
/**
 * Figures for reports: response-time statistics, a Unicode sparkline GitHub
 * renders anywhere, times relative to now, and a mark per status. Plain text:
 * the summary renderer escapes it like any other value.
 */


/** The nearest-rank percentile `p` (0-100) of the values; undefined when there are none. */
function percentile(values, p) {
    if (values.length === 0)
        return undefined;
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}
/** Min, average and 95th percentile of the values; undefined when there are none. */
function spreadOf(values) {
    const p95 = percentile(values, 95);
    if (p95 === undefined)
        return undefined;
    let min = Number.POSITIVE_INFINITY;
    let sum = 0;
    for (const v of values) {
        if (v < min)
            min = v;
        sum += v;
    }
    return { min, avg: Math.round(sum / values.length), p95 };
}
const spreadText = (s) => (s ? `${s.min} / ${s.avg} / ${s.p95}` : '');
const BARS = '▁▂▃▄▅▆▇█';
/** The values as a sparkline of at most `width` bars (averaged into buckets when there are more). */
function sparkline(values, width = 40) {
    if (values.length === 0)
        return '';
    const buckets = Math.min(width, values.length);
    const points = Array.from({ length: buckets }, (_, i) => {
        const part = values.slice(Math.floor((i * values.length) / buckets), Math.floor(((i + 1) * values.length) / buckets));
        return part.reduce((a, b) => a + b, 0) / part.length;
    });
    const low = Math.min(...points);
    const high = Math.max(...points);
    return points.map(v => BARS[high === low ? 0 : Math.round(((v - low) / (high - low)) * (BARS.length - 1))]).join('');
}
/** An ISO time as "12 s ago" (or "in 5 s" for a clock ahead), with the time of day in UTC. */
function ago(iso, now) {
    const at = timeOf(iso);
    if (Number.isNaN(at))
        return 'never';
    const seconds = Math.round((now - at) / 1000);
    const size = Math.abs(seconds);
    // Round, then choose the unit: 3570 s is "1 h", not "60 min".
    const minutes = Math.round(size / 60);
    const hours = Math.round(size / 3600);
    const amount = size < 60
        ? `${size} s`
        : minutes < 60
            ? `${minutes} min`
            : hours < 24
                ? `${hours} h`
                : `${Math.round(size / 86_400)} d`;
    const clock = new Date(at).toISOString().slice(11, 19);
    return `${seconds >= 0 ? `${amount} ago` : `in ${amount}`} (${clock} UTC)`;
}
/** ✅ for the status wanted, ⏸ for paused, ❌ for anything else. */
function statusMark(status, wanted = 'up') {
    const s = str(status).toLowerCase();
    if (s === wanted.toLowerCase())
        return '✅';
    if (s === 'paused')
        return '⏸';
    return '❌';
}

;// CONCATENATED MODULE: ./src/operations/gate/history.ts




/** Percentage of entries that are up, among entries that carry a status. */
function uptimeOf(entries) {
    const withStatus = entries.filter(e => typeof e.status === 'string');
    if (withStatus.length === 0)
        return '';
    const up = withStatus.filter(e => str(e.status).toLowerCase() === 'up').length;
    return ((up / withStatus.length) * 100).toFixed(2);
}
/** Rows the summary's table shows; the rest are counted in a line. */
const SHOWN = 50;
const checkHistory = async (ctx) => {
    const { check } = await targetCheck(ctx);
    const all = await ctx.api.checkHistory(check.id);
    const now = ctx.clock.now();
    const since = ctx.config.since;
    const from = since === undefined ? undefined : 'at' in since ? since.at : ctx.startedAt - since.agoMs;
    // With since, only entries that say when they were checked, from that moment on.
    const entries = from === undefined ? all : all.filter(e => timeOf(e.checkedAt) >= from);
    const uptime = uptimeOf(entries);
    const times = entries.map(e => e.responseTime).filter((t) => typeof t === 'number');
    const p95 = percentile(times, 95);
    // The API's order is kept in `result`; the chart reads oldest first when the entries say when.
    const when = (e) => timeOf(e.checkedAt) || 0;
    const chronological = [...entries].sort((a, b) => when(a) - when(b));
    const trend = sparkline(chronological.map(e => e.responseTime).filter((t) => typeof t === 'number'));
    const shown = entries.slice(0, SHOWN);
    return {
        outputs: {
            ...checkOutputs(check),
            result: entries,
            count: entries.length,
            uptime,
            'response-time-p95': p95 === undefined ? '' : String(p95)
        },
        summary: {
            title: `History of ${str(check.name) || check.id}`,
            lines: [
                `${entries.length} entries${from !== undefined ? ` since ${new Date(from).toISOString()} (${all.length - entries.length} older or undated left out)` : ''}${uptime ? `; up in ${uptime}% of those with a status` : ''}.`,
                ...(times.length > 0
                    ? [`Response time min / avg / p95: ${spreadText(spreadOf(times))} ms.`, `Trend (oldest first): ${trend}`]
                    : []),
                ...(entries.length > shown.length
                    ? [
                        `The table shows the first ${shown.length}; ${entries.length - shown.length} more rows not shown (every entry is in the result output).`
                    ]
                    : [])
            ],
            tables: [
                {
                    head: ['', 'Checked', 'Status', 'Response time (ms)', 'Details'],
                    rows: shown.map(e => {
                        const { checkedAt, status, responseTime, ...rest } = e;
                        return [
                            statusMark(status),
                            ago(checkedAt, now),
                            status,
                            responseTime,
                            Object.keys(rest).length ? canonical(rest) : ''
                        ];
                    })
                }
            ]
        }
    };
};

;// CONCATENATED MODULE: ./src/operations/checks/pause.ts
/**
 * pause-check and resume-check, and the post step that resumes what a
 * pause-check with auto-resume paused (registered in registry.ts).
 */




/**
 * Set `status` on every targeted check whose state needs it. `beforeEach` is
 * told about each check just before its PUT is sent.
 */
async function setStatus(ctx, checks, needsChange, status, beforeEach = () => { }) {
    const results = [];
    const changedIds = [];
    for (const check of checks) {
        if (!needsChange(check)) {
            ctx.log.info(`${check.id} (${str(check.name)}) is ${str(check.status) || 'without status'}: nothing to send.`);
            results.push(check);
            continue;
        }
        const body = { ...writableOf(check), status };
        changedIds.push(check.id);
        if (dryRunSkips(ctx, 'PUT', paths.check(check.id), body)) {
            results.push({ ...check, status });
            continue;
        }
        try {
            beforeEach(check);
            results.push(await ctx.api.updateCheck(check.id, body));
        }
        catch (error) {
            const done = changedIds.slice(0, -1);
            throw new OperationError(`${error instanceof Error ? error.message : String(error)}${done.length > 0 ? ` (already set to ${status}: ${done.join(', ')})` : ''}`, { changed: done.length > 0 });
        }
        ctx.log.info(`${check.id} (${str(check.name)}) is now ${status}.`);
    }
    return { results, changedIds };
}
/** State name under which pause-check records, for the post step, the checks it may have paused. */
const PAUSED_STATE = 'paused-check-ids';
/** The ids recorded in PAUSED_STATE (a JSON list); anything unreadable is no id. */
function recordedPauses(text) {
    if (!text)
        return [];
    try {
        const value = JSON.parse(text);
        return Array.isArray(value) ? value.filter((id) => typeof id === 'string' && id !== '') : [];
    }
    catch {
        return [];
    }
}
const pauseCheck = async (ctx) => {
    const { checks, notes } = await targetChecks(ctx);
    const recorded = [];
    // Each check is recorded before its PUT, so that a failure or cancel later in the
    // step never hides a check this step may have paused from the post step.
    const record = (check) => {
        if (!ctx.config.autoResume)
            return;
        recorded.push(check.id);
        ctx.remember(PAUSED_STATE, JSON.stringify(recorded));
    };
    const { results, changedIds } = await setStatus(ctx, checks, c => !isPaused(c), PAUSED, record);
    const lines = [
        ...notes,
        changedIds.length > 0
            ? `${ctx.config.dryRun ? 'Would pause' : 'Paused'}: ${changedIds.join(', ')}.`
            : 'All were already paused: nothing sent.'
    ];
    if (ctx.config.autoResume)
        lines.push('The post step resumes, when the job ends, the checks this step paused.');
    return {
        outputs: { ...checkOutputs(results[0]), result: results, changed: changedIds.length > 0 },
        summary: checkSummary('Checks paused', results, lines)
    };
};
const resumeCheck = async (ctx) => {
    const { checks, notes } = await targetChecks(ctx);
    const { results, changedIds } = await setStatus(ctx, checks, isPaused, 'up');
    return {
        outputs: { ...checkOutputs(results[0]), result: results, changed: changedIds.length > 0 },
        summary: checkSummary('Checks resumed', results, [
            ...notes,
            changedIds.length > 0
                ? `${ctx.config.dryRun ? 'Would resume' : 'Resumed'}: ${changedIds.join(', ')}.`
                : 'None was paused: nothing sent.'
        ])
    };
};
/**
 * The post step of pause-check with auto-resume: resume each recorded check
 * that is paused now (a recorded check was not paused before the step). Every
 * check is tried; failures are reported together at the end. Returns the
 * summary, or undefined when nothing was resumed (the post step stays quiet).
 */
async function resumePaused(ctx, ids) {
    const resumed = [];
    const failed = [];
    for (const id of ids) {
        try {
            const check = await ctx.api.getCheck(id);
            if (!check) {
                ctx.log.debug(`auto-resume: ${id} no longer exists: nothing to resume.`);
                continue;
            }
            if (!isPaused(check)) {
                ctx.log.debug(`auto-resume: ${id} is ${str(check.status) || 'without status'}, not paused: left alone.`);
                continue;
            }
            resumed.push(await ctx.api.updateCheck(id, { ...writableOf(check), status: 'up' }));
        }
        catch (error) {
            failed.push(`${id}: ${error instanceof Error ? error.message : String(error)}`);
        }
    }
    const names = resumed.map(c => `${c.id} (${str(c.name)})`).join(', ');
    if (resumed.length > 0)
        ctx.log.info(`auto-resume: resumed ${resumed.length} check(s) this job paused: ${names}.`);
    const lines = resumed.length > 0 ? [`Resumed the checks this job paused: ${names}.`] : [];
    if (failed.length > 0) {
        const message = `auto-resume could not resume ${failed.length} of ${ids.length} check(s) this job paused; they stay paused until resumed by hand: ${failed.join(' | ')}`;
        throw new OperationError(message, {}, { title: 'auto-resume failed', lines: [...lines, message], tables: [] });
    }
    if (resumed.length === 0)
        return undefined;
    return checkSummary('auto-resume: checks resumed', resumed, lines);
}

;// CONCATENATED MODULE: ./src/operations/gate/baseline.ts



/** Fewer results than this in the window: the comparison is skipped (a new check has no past). */
const MIN_BASELINE_RESULTS = 5;
/** `+20%` or `+150 ms`. */
function increaseText(increase) {
    return 'percent' in increase ? `+${increase.percent}%` : `+${increase.ms} ms`;
}
/** The baseline p95 plus the increase, in ms (to a hundredth: 123 ms + 12.5% is 138.38 ms). */
function limitOf(p95, increase) {
    const raw = 'percent' in increase ? p95 + (p95 * increase.percent) / 100 : p95 + increase.ms;
    const rounded = Math.round(raw * 100) / 100;
    // Near the largest number the hundredths (or the sum) overflow: the limit is held to a finite one.
    return Number.isFinite(rounded) ? rounded : Math.min(raw, Number.MAX_VALUE);
}
/** A window's length in words: `30d` (over a day), `24h`, `90m`, `45s`. */
function windowText(ms) {
    if (ms > 86_400_000 && ms % 86_400_000 === 0)
        return `${ms / 86_400_000}d`;
    if (ms % 3_600_000 === 0)
        return `${ms / 3_600_000}h`;
    if (ms % 60_000 === 0)
        return `${ms / 60_000}m`;
    return `${ms / 1000}s`;
}
/**
 * The baseline of one check from its history: the entries checked in
 * `[from, to)` (undated ones cannot be placed, so they never count; each
 * entry once, should a shifting page show a row twice: the same `id`, or
 * without one the same fields and values; two distinct results at one
 * instant both count), up or without a status, with a response time.
 */
function baselineOf(entries, from, to, increase) {
    const times = [];
    const seen = new Set();
    let notUp = 0;
    let noResponseTime = 0;
    for (const entry of entries) {
        const at = timeOf(entry.checkedAt);
        const key = typeof entry.id === 'string' ? `id:${entry.id}` : canonical(entry);
        if (!(at >= from && at < to) || seen.has(key))
            continue;
        seen.add(key);
        const status = str(entry.status).toLowerCase();
        const rt = entry.responseTime;
        if (status !== '' && status !== 'up')
            notUp++;
        else if (typeof rt !== 'number' || !Number.isFinite(rt) || rt < 0)
            noResponseTime++;
        else
            times.push(rt);
    }
    const base = { from, to, results: times.length, notUp, noResponseTime };
    if (times.length < MIN_BASELINE_RESULTS) {
        const left = [notUp ? `${notUp} not up` : '', noResponseTime ? `${noResponseTime} without a response time` : '']
            .filter(Boolean)
            .join(', ');
        return {
            ...base,
            skipped: `${times.length} result(s) up with a response time in the ${windowText(to - from)} before the step started (${MIN_BASELINE_RESULTS} needed${left ? `; left out: ${left}` : ''})`
        };
    }
    const p95 = percentile(times, 95);
    return { ...base, p95, limitMs: limitOf(p95, increase) };
}
/** One check's baseline in words, for the log and the reports. */
function baselineText(b, increase) {
    if (b.skipped !== undefined)
        return `no baseline: ${b.skipped}; the comparison is skipped`;
    const left = b.notUp + b.noResponseTime;
    return `baseline p95 ${b.p95} ms of ${b.results} result(s) in the ${windowText(b.to - b.from)} before the step started${left ? ` (${left} left out: not up or without a response time)` : ''}; limit ${b.limitMs} ms (${increaseText(increase)})`;
}
/** The baseline as outputs carry it (`result`, `failed-checks`): plain JSON, null where unknown. */
function baselineJson(b) {
    if (!b)
        return null;
    return {
        p95: b.p95 ?? null,
        limit: b.limitMs ?? null,
        results: b.results,
        from: new Date(b.from).toISOString(),
        to: new Date(b.to).toISOString(),
        ...(b.skipped !== undefined ? { skipped: b.skipped } : {})
    };
}

;// CONCATENATED MODULE: ./src/operations/gate/budget.ts



/** Fewer results with a status than this in the window: the budget is not judged (a new check has no past). */
const MIN_BUDGET_RESULTS = 5;
/** `numerator / denominator` in ten-thousandths, rounded down (toward minus infinity), exactly. */
function cut(numerator, denominator) {
    const scaled = numerator * 10000n;
    let q = scaled / denominator;
    if (scaled % denominator !== 0n && scaled < 0n !== denominator < 0n)
        q -= 1n;
    return Number(q) / 10_000;
}
/**
 * The budget of one check from its history: the entries checked in
 * `[from, to)` that carry a status (undated ones cannot be placed; each
 * entry once, should a shifting page show a row twice: the same `id`, or
 * without one the same fields and values). Up is `up` in any case; any other
 * status (down, degraded, ...) is a failed result.
 */
function budgetOf(entries, from, to, slo) {
    const seen = new Set();
    let results = 0;
    let up = 0;
    for (const entry of entries) {
        const at = timeOf(entry.checkedAt);
        const key = typeof entry.id === 'string' ? `id:${entry.id}` : canonical(entry);
        const status = str(entry.status).trim().toLowerCase();
        if (!(at >= from && at < to) || status === '' || seen.has(key))
            continue;
        seen.add(key);
        results++;
        if (status === 'up')
            up++;
    }
    const base = { from, to, objective: slo.percent, results, up };
    if (results < MIN_BUDGET_RESULTS) {
        return {
            ...base,
            spent: false,
            skipped: `${results} result(s) with a status in the ${windowText(to - from)} before the step started (${MIN_BUDGET_RESULTS} needed)`
        };
    }
    // The share that may fail is (100 - slo) / 100 = allowed / whole; left = 1 - (down / results) / (allowed / whole).
    const whole = BigInt(100 * slo.scale);
    const allowed = whole - BigInt(slo.scaled);
    const down = BigInt(results - up);
    const budget = BigInt(results) * allowed;
    const left = budget - down * whole;
    return {
        ...base,
        availability: cut(BigInt(up) * 100n, BigInt(results)),
        remaining: cut(left * 100n, budget),
        spent: left <= 0n
    };
}
/** Budget left as a bar of 10 cells: `███░░░░░░░ 31.5% left`, `░░░░░░░░░░ spent (-40% left)`. */
function budgetBar(b) {
    if (b.remaining === undefined)
        return '';
    const full = b.spent ? 0 : Math.min(10, Math.max(1, Math.floor(b.remaining / 10)));
    return `${'█'.repeat(full)}${'░'.repeat(10 - full)} ${b.spent ? `spent (${b.remaining}% left)` : `${b.remaining}% left`}`;
}
/** One check's budget in words, for the log, the failure and the reports. */
function budgetText(b) {
    const window = windowText(b.to - b.from);
    if (b.skipped !== undefined)
        return `no error budget: ${b.skipped}; the budget is not judged`;
    return `availability ${b.availability}% (${b.up} of ${b.results} result(s) up) in the ${window} before the step started against an objective of ${b.objective}%: error budget ${b.spent ? `spent (${b.remaining}% left)` : `${b.remaining}% left`}`;
}
/** The budget as outputs carry it (`result`, `failed-checks`): plain JSON, null where unknown. */
function budgetJson(b) {
    if (!b)
        return null;
    return {
        objective: b.objective,
        availability: b.availability ?? null,
        remaining: b.remaining ?? null,
        spent: b.spent,
        results: b.results,
        up: b.up,
        from: new Date(b.from).toISOString(),
        to: new Date(b.to).toISOString(),
        ...(b.skipped !== undefined ? { skipped: b.skipped } : {})
    };
}

;// CONCATENATED MODULE: ./src/operations/gate/probes.ts
/**
 * One probe, two records: the check says when its last probe happened
 * (`lastCheckedAt`) and its history says it again (`checkedAt`), and the two
 * may differ by the probe's duration (one records the start, the other the
 * end) or by precision (whole seconds beside milliseconds). Such a pair is
 * one result and counts once toward `consecutive-passes`; when the action
 * cannot tell two records apart, it counts them as one (fewer, never more).
 */

/**
 * How long a probe is taken to have lasted when neither record reports a
 * response time: the common longest probe (a request timeout of 30 s).
 */
const UNREPORTED_PROBE_MS = 30_000;
/** A record's time, its precision and its probe's duration; undefined when its time cannot be placed. */
function seenOf(time, responseTime) {
    const placed = placeTime(time);
    if (!placed)
        return undefined;
    const rt = typeof responseTime === 'number' && Number.isFinite(responseTime) && responseTime >= 0 ? responseTime : undefined;
    return { at: placed.ms, precisionMs: placed.precisionMs, ...(rt !== undefined ? { durationMs: rt } : {}) };
}
/**
 * How far apart two records of one probe can be: the probe's duration (the
 * larger response time either reports; none reported: `UNREPORTED_PROBE_MS`)
 * plus the precision of each time (a whole second each way for whole-second
 * times, a millisecond for milliseconds).
 */
function toleranceOf(a, b) {
    const durations = [a.durationMs, b.durationMs].filter((d) => d !== undefined);
    const duration = durations.length > 0 ? Math.max(...durations) : UNREPORTED_PROBE_MS;
    return duration + a.precisionMs + b.precisionMs;
}
/** Whether two records cannot be told apart as two probes: their times are within `toleranceOf` each other. */
function oneProbe(a, b) {
    return Math.abs(a.at - b.at) <= toleranceOf(a, b);
}
/** The results of one check kept to tell a record seen again from a new one: the latest few. */
const KEPT = 10;
/** Remember a result seen (the latest `KEPT`). */
function remember(list, seen) {
    if (!seen)
        return;
    list.push(seen);
    if (list.length > KEPT)
        list.splice(0, list.length - KEPT);
}

;// CONCATENATED MODULE: ./src/operations/gate/judge.ts




/** Allowance for clock skew between the runner and the service. */
const FRESHNESS_SKEW_MS = 5_000;
/** One result against the rules, and against its check's baseline when it has one (not skipped). */
function judge(check, rules, baseline) {
    const missed = [];
    const status = str(check.status);
    if (status.toLowerCase() !== rules.expectedStatus.toLowerCase()) {
        missed.push(`status is ${status || 'empty'}, expected ${rules.expectedStatus}`);
    }
    if (rules.maxResponseTimeMs !== undefined) {
        const rt = check.responseTime;
        if (typeof rt !== 'number')
            missed.push('no response time reported');
        else if (rt > rules.maxResponseTimeMs)
            missed.push(`response time ${rt} ms is above ${rules.maxResponseTimeMs} ms`);
    }
    if (baseline?.limitMs !== undefined && rules.increase) {
        const rt = check.responseTime;
        if (typeof rt !== 'number') {
            if (rules.maxResponseTimeMs === undefined)
                missed.push('no response time reported');
        }
        else if (rt > baseline.limitMs) {
            missed.push(`response time ${rt} ms is above the limit ${baseline.limitMs} ms (baseline p95 ${baseline.p95} ms ${increaseText(rules.increase)})`);
        }
    }
    if (rules.freshAfter !== undefined) {
        const at = timeOf(check.lastCheckedAt);
        const when = str(check.lastCheckedAt).trim();
        if (Number.isNaN(at) && when !== '')
            missed.push(`last checked ${JSON.stringify(when)}, a time in a form the action cannot read: never counted as fresh`);
        else if (Number.isNaN(at))
            missed.push('never checked');
        else if (at <= rules.freshAfter)
            missed.push(`last checked ${str(check.lastCheckedAt)}, before this step started (stale)`);
    }
    return { passed: missed.length === 0, missed };
}
function describeCheck(check) {
    return `${str(check.name) || check.id} (${check.id}): status ${str(check.status) || '-'}, response time ${check.responseTime ?? '-'} ms, checked ${str(check.lastCheckedAt) || 'never'}`;
}
/** What a check that did not pass missed, in words. */
function reasonOf(track, needed) {
    const missed = track.verdict ? track.verdict.missed : ['not polled before the time limit'];
    if (missed.length > 0)
        return missed.join('; ');
    return `met the condition in ${track.streak} of ${needed} results in a row`;
}
/**
 * Count one result of a check; returns what it was, in words. Every result is
 * judged: one that misses resets the count, even when it repeats a time
 * already seen. One that meets the condition counts only when it is newer
 * than every result seen before (its lastCheckedAt, parsed).
 */
function observe(track, check, rules, needed, late) {
    const parsed = timeOf(check.lastCheckedAt);
    const time = Number.isNaN(parsed) ? Number.NEGATIVE_INFINITY : parsed;
    const newer = track.seenUpTo === undefined || time > track.seenUpTo;
    track.seenUpTo = Math.max(track.seenUpTo ?? Number.NEGATIVE_INFINITY, time);
    if (newer)
        remember(track.seen, seenOf(check.lastCheckedAt, check.responseTime));
    let verdict = judge(check, rules, track.baseline);
    // A gate whose time ran out never passes: an answer that arrives after the timeout is reported, but does not count.
    if (verdict.passed && late)
        verdict = { passed: false, missed: ['the answer arrived after the timeout'] };
    track.verdict = verdict;
    if (newer && typeof check.responseTime === 'number')
        track.times.push(check.responseTime);
    if (!verdict.passed) {
        track.streak = 0;
        track.marks.push('❌');
        return verdict.missed.join('; ');
    }
    if (!newer) {
        track.marks.push('↺');
        return track.streak >= needed ? 'passed' : 'no new result since the last poll';
    }
    track.streak++;
    track.marks.push('✅');
    return track.streak >= needed ? 'passed' : 'met the condition';
}

;// CONCATENATED MODULE: ./src/operations/gate/past.ts
/**
 * Each check's past, read once before the first poll: its history in the
 * widest window a rule needs (the baseline's, the error budget's), from which
 * each rule takes its own window. Every page, or up to the first wholly older
 * than the window when the service lists it newest first
 * (`MonitoringApi.checkHistory`). The read counts against the timeout and
 * never runs past it (`ctx.api` has the hard deadline): no request is sent
 * after the deadline, and one in flight is cut off there.
 */





/**
 * The most pages the error budget's read follows (the usual cap is 100): a
 * 30-day window of a one-minute check is 43,200 results, 864 pages of 50. The
 * timeout bounds the read in time; this bounds it should the pages never end.
 */
const BUDGET_MAX_PAGES = 10_000;
/**
 * Read each check's past and set its baseline and budget. Returns why the
 * gate must stop (the time ran out reading a baseline: the gate closes,
 * `timed-out`), or undefined. With the error budget, a window that cannot be
 * read in time is an error (thrown): the budget is never taken as unspent.
 */
async function readPast(ctx, tracks, rules) {
    const windowMs = Math.max(rules.baseline?.windowMs ?? 0, rules.budget?.windowMs ?? 0);
    const from = ctx.startedAt - windowMs;
    const api = rules.budget ? ctx.api.withMaxPages(BUDGET_MAX_PAGES) : ctx.api;
    const what = rules.budget ? `Error budget${rules.baseline ? ' and baseline' : ''}` : 'Baseline';
    return ctx.log.group(`${what}: each check's history in the ${windowText(windowMs)} before the step started`, async () => {
        for (const track of tracks) {
            const { check } = track;
            const name = `${str(check.name) || check.id} (${check.id})`;
            let history;
            // A long window takes minutes to read at 100 requests a minute: say what is under way.
            if (rules.budget)
                ctx.log.info(`${name}: reading its history back to ${new Date(from).toISOString()}`);
            try {
                history = await api.checkHistory(check.id, from);
            }
            catch (error) {
                if (!(error instanceof ApiError && error.kind === 'deadline'))
                    throw error;
                if (rules.budget) {
                    throw new OperationError(`the error budget's window (${windowText(rules.budget.windowMs)}) of ${name} could not be read within the timeout (${ctx.config.timeoutMs / 1000} s): ${error.message}. A long window of a frequent check takes many requests at the API's 100 a minute: raise timeout (see "The error budget" in docs/operations.md)`);
                }
                // A wait (pacing, a retry) that would pass the timeout is refused before the time runs out.
                return error.detail.includes('would pass')
                    ? `reading the baseline would have waited past the timeout: ${error.message}`
                    : `the time ran out reading the baseline: ${error.message}`;
            }
            if (rules.budget) {
                track.budget = budgetOf(history, ctx.startedAt - rules.budget.windowMs, ctx.startedAt, rules.budget.slo);
                const text = `${name}: ${budgetText(track.budget)}`;
                if (track.budget.skipped !== undefined)
                    ctx.log.warning(`${text}.`);
                else
                    ctx.log.info(text);
            }
            if (rules.baseline) {
                const { windowMs: baselineMs, increase } = rules.baseline;
                track.baseline = baselineOf(history, ctx.startedAt - baselineMs, ctx.startedAt, increase);
                const text = `${name}: ${baselineText(track.baseline, increase)}`;
                if (track.baseline.skipped !== undefined)
                    ctx.log.warning(`${text}: its results are judged without it.`);
                else
                    ctx.log.info(text);
            }
        }
        return undefined;
    });
}

;// CONCATENATED MODULE: ./src/operations/gate/junit.ts
/** Text safe in XML 1.0: markup characters escaped, characters XML cannot hold removed. */
function xmlText(value) {
    return value
        .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;')
        .replace(/"/g, '&quot;')
        .replace(/'/g, '&apos;');
}
const seconds = (s) => s.toFixed(3);
function junitXml(suite) {
    const failures = suite.cases.filter(c => c.failure && c.failure.type !== 'error').length;
    const errors = suite.cases.filter(c => c.failure?.type === 'error').length;
    const skipped = suite.cases.filter(c => !c.failure && c.skipped !== undefined).length;
    const lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        `<testsuites name="${xmlText(suite.name)}" tests="${suite.cases.length}" failures="${failures}" errors="${errors}" time="${seconds(suite.time)}">`,
        `  <testsuite name="${xmlText(suite.name)}" tests="${suite.cases.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds(suite.time)}" timestamp="${xmlText(suite.timestamp)}">`
    ];
    for (const c of suite.cases) {
        const open = `    <testcase name="${xmlText(c.name)}" classname="${xmlText(c.classname)}" time="${seconds(c.time)}"`;
        if (!c.failure && c.skipped !== undefined) {
            // The reason as text: the Jenkins schema the common reporters follow allows no attribute on it.
            lines.push(`${open}>`, `      <skipped>${xmlText(c.skipped)}</skipped>`, '    </testcase>');
            continue;
        }
        if (!c.failure) {
            lines.push(`${open}/>`);
            continue;
        }
        const tag = c.failure.type === 'error' ? 'error' : 'failure';
        lines.push(`${open}>`, `      <${tag} type="${c.failure.type}" message="${xmlText(c.failure.message)}">${xmlText(c.failure.details ?? c.failure.message)}</${tag}>`, '    </testcase>');
    }
    lines.push('  </testsuite>', '</testsuites>', '');
    return lines.join('\n');
}

// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __nccwpck_require__(7598);
;// CONCATENATED MODULE: external "node:fs/promises"
const promises_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs/promises");
;// CONCATENATED MODULE: ./src/operations/write-whole.ts
/** A report file written whole or not at all: a temporary file beside it, then a rename. */



/**
 * Write `text` to `file`, making its folder first if it is missing (a report
 * path such as `reports/gate.xml`); on failure nothing is left behind.
 */
async function writeWhole(file, text) {
    await (0,promises_namespaceObject.mkdir)(external_node_path_namespaceObject.dirname(file), { recursive: true });
    const temporary = external_node_path_namespaceObject.join(external_node_path_namespaceObject.dirname(file), `.${external_node_path_namespaceObject.basename(file)}.${(0,external_node_crypto_.randomBytes)(6).toString('hex')}.tmp`);
    try {
        await (0,promises_namespaceObject.writeFile)(temporary, text, { flag: 'wx' });
        await (0,promises_namespaceObject.rename)(temporary, file);
    }
    catch (error) {
        await (0,promises_namespaceObject.rm)(temporary, { force: true });
        throw error;
    }
}
/** "cannot write FILE (CODE)", for an error message that names the input. */
function cannotWrite(file, error) {
    const code = error.code;
    return `cannot write ${file}${code ? ` (${code})` : ''}`;
}

;// CONCATENATED MODULE: ./src/operations/gate/report.ts
/**
 * What a gate reports when it ends, whatever the outcome: the outputs (with
 * the checks that did not pass), the job summary's tables, and the JUnit
 * report (`junit-file`).
 */










/** The outputs, the summary and the JUnit report of a gate that ended with `outcome`. */
async function report(ctx, outcome, tracks, polls, conditions, error) {
    const { config, clock } = ctx;
    const needed = config.consecutivePasses;
    const now = clock.now();
    const failed = tracks.filter(t => t.streak < needed);
    const reason = (t) => error
        ? `the gate ended with an error: ${error}`
        : outcome === 'budget-exhausted'
            ? budgetReason(t)
            : reasonOf(t, needed);
    // With `baseline` and `slo`, each check's own baseline and budget go with it in result and failed-checks.
    const compared = config.baselineMs !== undefined && config.maxIncrease !== undefined;
    const budgeted = config.slo !== undefined;
    const withBaseline = (t) => ({
        ...(compared ? { baseline: baselineJson(t.baseline) } : {}),
        ...(budgeted ? { errorBudget: budgetJson(t.budget) } : {})
    });
    const first = tracks[0]?.budget;
    const failedChecks = failed.map(t => ({
        id: t.check.id,
        name: t.check.name ?? null,
        status: t.check.status ?? null,
        responseTime: t.check.responseTime ?? null,
        lastCheckedAt: t.check.lastCheckedAt ?? null,
        reason: reason(t),
        ...withBaseline(t)
    }));
    const outputs = {
        ...checkOutputs((tracks.find(t => t.budget?.spent) ?? failed[0] ?? tracks[0])?.check),
        result: tracks.map(t => ({ ...t.check, ...withBaseline(t) })),
        passed: outcome === 'passed',
        outcome,
        'failed-checks': failedChecks,
        // The first check's, in the order targeted (each one's is in result and failed-checks).
        ...(compared ? { 'baseline-p95': String(tracks[0]?.baseline?.p95 ?? '') } : {}),
        ...(budgeted
            ? { availability: String(first?.availability ?? ''), 'error-budget-remaining': String(first?.remaining ?? '') }
            : {})
    };
    const elapsedMs = now - ctx.startedAt;
    const elapsed = (elapsedMs / 1000).toFixed(1);
    // Last, and never in the way: a report that cannot be written is a warning, the gate's result stands.
    if (config.junitFile !== undefined) {
        try {
            await writeJunit(ctx, tracks, elapsedMs, reason, error, outcome);
        }
        catch (failure) {
            ctx.log.warning(`${failure instanceof Error ? failure.message : String(failure)}; the gate's result is in the outputs and the summary.`);
        }
    }
    const titles = {
        passed: 'Release gate passed',
        'timed-out': 'Release gate closed: the time ran out',
        'budget-exhausted': 'Release gate closed: the error budget is spent',
        error: 'Release gate ended with an error'
    };
    const summary = {
        title: titles[outcome],
        lines: [
            outcome === 'passed'
                ? `Every check met: ${conditions.join(', ')} (${polls} poll(s), ${elapsed} s).`
                : outcome === 'budget-exhausted'
                    ? `${tracks.filter(t => t.budget?.spent).length} of ${tracks.length} check(s) had spent the error budget: the gate closed before any poll (${elapsed} s).`
                    : `${failed.length} of ${tracks.length} check(s) did not meet: ${conditions.join(', ')} (${polls} poll(s), ${elapsed} s).`,
            ...(error ? [`Error: ${error}`] : []),
            ...(budgeted ? budgetLines(tracks) : []),
            ...(compared ? baselineLines(tracks, config.baselineMs, config.maxIncrease) : [])
        ],
        tables: [
            {
                head: [
                    '',
                    'Check',
                    'ID',
                    'Status',
                    'Response time (ms)',
                    ...(compared ? ['Baseline p95 (ms)', 'Limit (ms)'] : []),
                    'Checked',
                    'In a row',
                    'Verdict'
                ],
                rows: tracks.map(t => [
                    t.streak >= needed ? '✅' : statusMark(t.check.status, config.expectedStatus) === '⏸' ? '⏸' : '❌',
                    t.check.name,
                    t.check.id,
                    t.check.status,
                    t.check.responseTime,
                    ...(compared ? baselineCells(t.baseline) : []),
                    ago(t.check.lastCheckedAt, now),
                    `${t.streak}/${needed}`,
                    t.streak >= needed ? 'passed' : `not passed: ${reason(t)}`
                ])
            },
            {
                head: [
                    'Check',
                    'Polls, oldest first (✅ met, ❌ missed, ↺ no new result)',
                    'Response time min / avg / p95 (ms)',
                    'Trend',
                    ...(compared ? ['Against the limit'] : [])
                ],
                rows: tracks.map(t => [
                    t.check.name ?? t.check.id,
                    t.marks.length > 60 ? `…${t.marks.slice(-60).join('')}` : t.marks.join(''),
                    spreadText(spreadOf(t.times)),
                    sparkline(t.times),
                    ...(compared ? [againstLimit(t)] : [])
                ])
            },
            ...(budgeted ? [budgetTable(tracks)] : [])
        ]
    };
    return { outputs, summary };
}
/** Why a check did not pass a gate closed by a spent budget: its own budget, or another's. */
function budgetReason(t) {
    return t.budget?.spent
        ? `error budget spent: ${budgetText(t.budget)}`
        : "not polled: the gate closed before any poll, as another check's error budget is spent";
}
/** The error budget's rule, and a line for each check whose budget was not judged (too few results). */
function budgetLines(tracks) {
    return [
        "Error budget: each check's results with a status in the window before the step started; availability is the up ones among them, and the budget left is 1 - (1 - availability) / (1 - objective). A check whose budget is spent closes the gate before any poll.",
        ...tracks
            .filter(t => t.budget?.skipped !== undefined)
            .map(t => `${str(t.check.name) || t.check.id}: ${budgetText(t.budget)} for it.`)
    ];
}
/** Each check's availability, objective and budget left (with a bar). */
function budgetTable(tracks) {
    return {
        head: ['Check', 'Window', 'Results', 'Up', 'Availability (%)', 'Objective (%)', 'Error budget left'],
        rows: tracks.map(t => {
            const b = t.budget;
            if (!b)
                return [t.check.name ?? t.check.id, '', '', '', 'not read', '', ''];
            return [
                t.check.name ?? t.check.id,
                windowText(b.to - b.from),
                b.results,
                b.up,
                b.availability ?? `too few results (${b.results})`,
                b.objective,
                b.skipped !== undefined ? 'not judged' : budgetBar(b)
            ];
        })
    };
}
/** The baseline's rule, and a line for each check whose comparison was skipped (too few results). */
function baselineLines(tracks, windowMs, increase) {
    return [
        `Baseline: each check's results in the ${windowText(windowMs)} before the step started that were up and carry a response time; a result passes if it is at most their p95 ${increaseText(increase)}.`,
        ...tracks
            .filter(t => t.baseline?.skipped !== undefined)
            .map(t => `${str(t.check.name) || t.check.id}: ${baselineText(t.baseline, increase)} for it.`)
    ];
}
/** The cells `Baseline p95 (ms)` and `Limit (ms)` of one check. */
function baselineCells(b) {
    if (!b)
        return ['not read', ''];
    if (b.skipped !== undefined)
        return [`too few results (${b.results})`, 'none'];
    return [b.p95, b.limitMs];
}
/** The fresh results seen against the check's limit, in words: `2 of 5 above 144 ms`. */
function againstLimit(t) {
    const limit = t.baseline?.limitMs;
    if (limit === undefined)
        return t.baseline ? 'no limit: too few results in the baseline' : '';
    const above = t.times.filter(ms => ms > limit).length;
    if (t.times.length === 0)
        return `no result yet; limit ${limit} ms`;
    return above === 0
        ? `all ${t.times.length} at or below ${limit} ms`
        : `${above} of ${t.times.length} above ${limit} ms`;
}
async function writeJunit(ctx, tracks, elapsedMs, reason, error, outcome) {
    const { config } = ctx;
    const file = external_node_path_namespaceObject.resolve(ctx.workspace, config.junitFile);
    // The key and every other secret of the step are *** in the file as in every report.
    const safe = ctx.redact;
    const cases = tracks.map(t => ({
        name: safe(`${str(t.check.name) || t.check.id} (${t.check.id})`),
        classname: 'wait-for-check',
        time: (t.passedAfterMs ?? elapsedMs) / 1000,
        ...(t.streak >= config.consecutivePasses
            ? {}
            : outcome === 'budget-exhausted' && !t.budget?.spent
                ? { skipped: safe(reason(t)) }
                : {
                    failure: {
                        type: error
                            ? 'error'
                            : outcome === 'budget-exhausted'
                                ? 'budget-exhausted'
                                : 'timed-out',
                        message: safe(reason(t)),
                        details: safe([
                            describeCheck(t.check),
                            reason(t),
                            ...(t.baseline && config.maxIncrease ? [baselineText(t.baseline, config.maxIncrease)] : []),
                            ...(t.budget ? [budgetText(t.budget)] : [])
                        ].join('\n'))
                    }
                })
    }));
    if (cases.length === 0 && error) {
        cases.push({
            name: 'wait-for-check',
            classname: 'wait-for-check',
            time: elapsedMs / 1000,
            failure: { type: 'error', message: safe(error) }
        });
    }
    const xml = junitXml({
        name: 'wait-for-check',
        timestamp: new Date(ctx.startedAt).toISOString(),
        time: elapsedMs / 1000,
        cases
    });
    try {
        await writeWhole(file, xml);
    }
    catch (failure) {
        throw new OperationError(`junit-file ${config.junitFile}: ${cannotWrite(file, failure)}`);
    }
}

;// CONCATENATED MODULE: ./src/operations/gate/gate.ts











/** A poll timed to the deadline may start this much after it (timers wake late). */
const DEADLINE_GRACE_MS = 1_000;
/** The gate. On an error (not a closed gate) the outputs still say which checks had not passed. */
const waitForCheck = async (untimed) => {
    const { config, clock } = untimed;
    const rules = {
        expectedStatus: config.expectedStatus,
        maxResponseTimeMs: config.maxResponseTimeMs,
        freshAfter: config.requireFresh ? untimed.startedAt - FRESHNESS_SKEW_MS : undefined,
        increase: config.baselineMs !== undefined ? config.maxIncrease : undefined
    };
    const windowMs = rules.increase ? config.baselineMs : undefined;
    const past = {
        ...(rules.increase && windowMs !== undefined ? { baseline: { windowMs, increase: rules.increase } } : {}),
        ...(config.slo ? { budget: { windowMs: config.sloWindowMs, slo: config.slo } } : {})
    };
    const needed = config.consecutivePasses;
    const deadline = untimed.startedAt + config.timeoutMs;
    // Every wait inside the gate (retries, pacing) counts against the timeout; the hard stop adds one request's time.
    const ctx = { ...untimed, api: untimed.api.withDeadline(deadline) };
    // History reads (the baseline, the results between polls) can be long: their requests stop at the deadline too.
    const reads = untimed.api.withDeadline(deadline, true);
    const hardStop = deadline + config.requestTimeoutMs + 1_000;
    const tracks = new Map();
    const conditions = [
        past.budget
            ? `an error budget not spent (${past.budget.slo.percent}% over ${windowText(past.budget.windowMs)})`
            : '',
        `status ${rules.expectedStatus}`,
        rules.maxResponseTimeMs !== undefined ? `response time <= ${rules.maxResponseTimeMs} ms` : '',
        rules.increase && windowMs !== undefined
            ? `response time <= its baseline p95 (${windowText(windowMs)} before the step) ${increaseText(rules.increase)}`
            : '',
        rules.freshAfter !== undefined ? 'a result from after the step started' : '',
        needed > 1 ? `${needed} results in a row` : ''
    ].filter(Boolean);
    let round = 0;
    try {
        const { checks: targets } = await targetChecks(ctx);
        for (const check of targets)
            tracks.set(check.id, { check, streak: 0, marks: [], times: [], seen: [] });
        const pending = new Set(targets.map(c => c.id));
        /** Why polling stopped before every check was polled to the end: a wait that would pass the timeout. */
        let cutShort;
        ctx.log.info(`Waiting up to ${config.timeoutMs / 1000} s for ${targets.length} check(s): ${conditions.join(', ')}.`);
        if (past.baseline || past.budget)
            cutShort = await readPast({ ...ctx, api: reads }, [...tracks.values()], past);
        const spent = [...tracks.values()].filter(t => t.budget?.spent);
        if (spent.length > 0) {
            // Before any poll: a release waits while the budget is spent, however healthy the checks are now.
            const result = await report(ctx, 'budget-exhausted', [...tracks.values()], round, conditions);
            const named = spent.map(t => `${str(t.check.name) || t.check.id} (${t.check.id}): ${budgetText(t.budget)}`);
            return {
                ...result,
                gateClosed: `wait-for-check: the error budget is spent for ${spent.length} of ${tracks.size} check(s); the gate closed before any poll: ${named.join(' | ')}`
            };
        }
        while (cutShort === undefined) {
            round++;
            await ctx.log.group(`Poll ${round}: ${pending.size} check(s) pending`, async () => {
                for (const id of [...pending]) {
                    // No request starts once the time is up (a second's grace for the poll that the
                    // last wait times to the deadline itself): its answer could not count.
                    if (clock.now() > deadline + DEADLINE_GRACE_MS) {
                        cutShort ??= 'the time ran out during the poll';
                        return;
                    }
                    if (clock.now() > hardStop)
                        return;
                    let check;
                    try {
                        check = await ctx.api.getCheck(id);
                    }
                    catch (error) {
                        if (error instanceof ApiError && error.kind === 'deadline') {
                            cutShort = error.message;
                            return;
                        }
                        throw error;
                    }
                    if (!check)
                        throw new OperationError(`check ${id} was deleted while waiting for it (GET answered 404)`);
                    const track = tracks.get(id);
                    // Each result is judged late or not when it is counted: one judged after the deadline never counts.
                    const late = () => clock.now() > deadline;
                    try {
                        const own = seenOf(check.lastCheckedAt, check.responseTime);
                        for (const between of await resultsBetween(reads, track, check, needed)) {
                            // A passing entry that is a result already seen, or the check's own (another time for the
                            // same probe), is that result: it counts once. A miss is always judged (it only resets).
                            const entry = seenOf(between.lastCheckedAt, between.responseTime);
                            const again = entry && [...track.seen, ...(own ? [own] : [])].some(r => oneProbe(r, entry));
                            if (again && judge(between, rules, track.baseline).passed)
                                continue;
                            observe(track, between, rules, needed, late());
                        }
                    }
                    catch (error) {
                        if (error instanceof ApiError && error.kind === 'deadline') {
                            cutShort = error.message;
                            return;
                        }
                        throw error;
                    }
                    track.check = check;
                    const progress = observe(track, check, rules, needed, late());
                    if (track.streak >= needed) {
                        track.passedAfterMs = clock.now() - ctx.startedAt;
                        pending.delete(id);
                    }
                    ctx.log.info(`${describeCheck(check)}: ${progress} (${track.streak}/${needed})`);
                }
            });
            if (pending.size === 0 || cutShort !== undefined)
                break;
            const now = clock.now();
            if (now >= deadline)
                break;
            await clock.sleep(Math.min(config.pollIntervalMs, deadline - now), ctx.signal);
            if (ctx.signal.aborted)
                throw new OperationError('wait-for-check was cancelled before the checks passed');
        }
        const outcome = pending.size === 0 ? 'passed' : 'timed-out';
        const result = await report(ctx, outcome, [...tracks.values()], round, conditions);
        if (outcome === 'passed')
            return result;
        const failures = [...tracks.values()]
            .filter(t => t.streak < needed)
            .map(t => `${describeCheck(t.check)}: ${reasonOf(t, needed)}`);
        return {
            ...result,
            gateClosed: `wait-for-check: ${pending.size} of ${tracks.size} check(s) did not pass within ${config.timeoutMs / 1000} s: ${failures.join(' | ')}${cutShort ? ` (polling stopped early: ${cutShort})` : ''}`
        };
    }
    catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const known = error instanceof OperationError ? error.outputs : {};
        const reported = await report(ctx, 'error', [...tracks.values()], round, conditions, message);
        throw new OperationError(message, { ...reported.outputs, ...known }, reported.summary);
    }
};
/**
 * The results the service recorded between the last one seen and `check`'s,
 * oldest first, as checks (its history's status, response time and time).
 * With consecutive passes, a check that flips faster than poll-interval
 * (up, down, up) must not pass on the results the polls happen to see: those
 * in between are judged too. At most one history read per check and poll,
 * and only when a newer result appeared since an earlier one was seen; `api`
 * has the hard deadline, so a slow read is cut off there (kind `deadline`).
 */
async function resultsBetween(api, track, check, needed) {
    const since = track.seenUpTo;
    const now = timeOf(check.lastCheckedAt);
    if (needed <= 1 || since === undefined || !Number.isFinite(since) || !(now > since))
        return [];
    const history = await api.checkHistory(check.id, since);
    // A row a shifting page shows twice is one entry: the same id, or without one the same fields and values.
    const rows = new Set();
    const once = (entry) => {
        const key = typeof entry.id === 'string' ? `id:${entry.id}` : canonical(entry);
        return !rows.has(key) && Boolean(rows.add(key));
    };
    return history
        .filter(once)
        .map(entry => ({ entry, at: timeOf(entry.checkedAt) }))
        .filter(({ at }) => at > since && at < now)
        .sort((a, b) => a.at - b.at)
        .map(({ entry }) => ({
        ...check,
        status: entry.status ?? undefined,
        responseTime: entry.responseTime ?? undefined,
        lastCheckedAt: entry.checkedAt ?? undefined
    }));
}

;// CONCATENATED MODULE: ./src/operations/incidents/incident-text.ts
/** The placeholders a user's incident text may hold. */
const PLACEHOLDERS = [
    'workflow',
    'job',
    'repository',
    'ref',
    'ref_name',
    'sha',
    'short_sha',
    'run_id',
    'run_number',
    'run_attempt',
    'run_url',
    'job_url',
    'actor',
    'event'
];
/**
 * Replace `{workflow}`, `{repository}`, `{run_url}`... in a user's text with
 * facts of the run. `{job_url}` is the job's own page when it was found
 * (`jobUrl`), else the run's.
 */
function fillRunFacts(text, run, jobUrl) {
    const facts = {
        workflow: run.workflow,
        job: run.job,
        repository: run.repository,
        ref: run.ref,
        ref_name: run.refName,
        job_url: jobUrl || run.runUrl,
        sha: run.sha,
        short_sha: run.shortSha,
        run_id: run.runId,
        run_number: run.runNumber,
        run_attempt: run.runAttempt,
        run_url: run.runUrl,
        actor: run.actor,
        event: run.eventName
    };
    return text.replace(/\{([a-z_]+)\}/g, (whole, name) => (name in facts ? facts[name] : whole));
}
/** The message of an incident opened by a failing run. */
function failureMessage(run) {
    const where = [
        run.workflow ? `Workflow "${run.workflow}"` : 'A workflow',
        run.job ? `(job ${run.job})` : '',
        'failed',
        run.repository ? `in ${run.repository}` : '',
        run.ref ? `on ${run.ref}` : '',
        run.shortSha ? `at commit ${run.shortSha}` : ''
    ]
        .filter(Boolean)
        .join(' ');
    const attempt = run.runAttempt ? `, run attempt ${run.runAttempt}` : '';
    return `${where}${attempt}.${run.runUrl ? ` Run: ${run.runUrl}` : ''}`;
}
/** The message of an incident resolved by a recovering run. */
function resolvedMessage(run) {
    const by = [
        run.workflow ? `workflow "${run.workflow}"` : 'a workflow',
        run.repository ? `in ${run.repository}` : '',
        run.ref ? `on ${run.ref}` : '',
        run.shortSha ? `at commit ${run.shortSha}` : ''
    ]
        .filter(Boolean)
        .join(' ');
    return `Resolved: ${by} succeeded${run.runAttempt ? ` (run attempt ${run.runAttempt})` : ''}.${run.runUrl ? ` Run: ${run.runUrl}` : ''}`;
}

;// CONCATENATED MODULE: ./src/operations/incidents/titles.ts
/**
 * Which incident a title means, and what to say and do about others of the
 * same title: identical duplicates found at the start (used as one, never
 * resolved), duplicates a racing run made (resolved in favour of the
 * survivor), and one that appeared while this run updated another.
 */




const RESOLVED = 'resolved';
const isResolved = (i) => str(i.status).toLowerCase() === RESOLVED;
/**
 * Titles the same incident: exactly, or (`loose`, for resolve-incident) after
 * trimming and ignoring case, so "Deploy failed " resolves "deploy failed".
 */
function sameTitle(a, b, loose) {
    return loose ? str(a).trim().toLowerCase() === b.trim().toLowerCase() : a === b;
}
/**
 * The newest unresolved incident with this exact title: the latest createdAt
 * (else updatedAt); without either, the last in list order.
 */
function newestUnresolved(incidents, title, loose = false) {
    const candidates = incidents
        .map((incident, index) => ({ incident, index }))
        .filter(({ incident }) => sameTitle(incident.title, title, loose) && !isResolved(incident));
    const time = (i) => timeOf(str(i.createdAt || i.updatedAt)) || Number.NEGATIVE_INFINITY;
    candidates.sort((a, b) => time(a.incident) - time(b.incident) || a.index - b.index);
    return candidates[candidates.length - 1]?.incident;
}
/**
 * The unresolved incident a title means: the newest. When every unresolved
 * incident with the title is identical (title, message, status and every other
 * field, as concurrent runs of one step make them), they are used as one: the
 * first in survival order (converge.ts); the others are named, never resolved
 * (they existed before this step). The same id listed twice is one incident.
 */
function byTitle(incidents, title, loose = false) {
    const open = uniqueById(incidents.filter(i => sameTitle(i.title, title, loose) && !isResolved(i)));
    if (open.length > 1 && open.every(i => signature(i) === signature(open[0]))) {
        const incident = survivorOf(open);
        return { incident, duplicates: open.filter(i => i.id !== incident.id) };
    }
    return { incident: newestUnresolved(uniqueById(incidents), title, loose), duplicates: [] };
}
const duplicateMessage = (survivor) => `Duplicate of incident ${survivor.id}, opened at the same time by another run of the same step; resolved in favour of ${survivor.id}.`;
/** Resolve an incident as a duplicate of `survivor`; already resolved is fine. */
async function resolveAsDuplicate(ctx, duplicate, survivor) {
    if (isResolved(duplicate))
        return;
    const body = { ...writableOf(duplicate), status: RESOLVED, message: duplicateMessage(survivor) };
    if (dryRunSkips(ctx, 'PUT', paths.incident(duplicate.id), body))
        return;
    await ctx.api.updateIncident(duplicate.id, body);
}
/** Warn about identical unresolved incidents of one title: which is used; the others are left. */
function titles_warnDuplicates(ctx, titled) {
    const { incident, duplicates } = titled;
    if (!incident || duplicates.length === 0)
        return [];
    const line = `${duplicates.length + 1} identical unresolved incidents are titled ${JSON.stringify(str(incident.title))}: using ${incident.id}; the others (${duplicates.map(i => i.id).join(', ')}) are left as they are, since they may have existed before this step and the action never resolves those. Resolve the ones you do not want with resolve-incident and incident-id.`;
    ctx.log.warning(line);
    return [line];
}
/**
 * After open-incident updated an incident, look once more: a racing run may
 * have resolved it and another opened a new one of the same title meanwhile
 * (our update then reopened the first). Which of the two existed first this
 * run cannot prove, so it resolves neither and says so.
 */
async function othersAfterUpdate(ctx, current, updated) {
    if (updated.outputs.changed !== true || ctx.config.dryRun)
        return [];
    const title = str(current.title);
    const others = uniqueById(await ctx.api.listIncidents()).filter(i => i.id !== current.id && sameTitle(i.title, title, false) && !isResolved(i));
    if (others.length === 0)
        return [];
    const line = `Another unresolved incident titled ${JSON.stringify(title)} appeared while this run updated ${current.id}: ${others.map(i => i.id).join(', ')} (opened by a concurrent run, or missed by the first look). This run cannot prove which existed first, so it resolves neither: ${current.id} is used; resolve the one you do not want with resolve-incident and incident-id.`;
    ctx.log.warning(line);
    return [line];
}

;// CONCATENATED MODULE: ./src/operations/incidents/incidents.ts
/**
 * Incident operations. The API has no GET of one incident, so an incident is
 * read from the list; a PUT always sends the whole incident.
 */







const DEFAULT_INCIDENT_STATUS = 'investigating';
/** The message an incident gets: incident-message (with the run's facts filled in), else `fallback` of the run. */
async function incidentMessage(ctx, fallback) {
    const given = ctx.config.incident.message;
    return typeof given === 'string' ? filled(ctx, given) : fallback(await ctx.runContext());
}
/** A user's text with the run's facts; the job's page is asked of GitHub only when the text wants it. */
async function filled(ctx, text) {
    for (const [, name] of text.matchAll(/\{([A-Za-z_]+)\}/g)) {
        if (PLACEHOLDERS.includes(name))
            continue;
        const near = closest(name, PLACEHOLDERS);
        ctx.log.warning(`incident-message: {${name}} is not a placeholder${near.length ? ` (did you mean ${near.map(n => `{${n}}`).join(' or ')}?)` : ''}; it is sent as written. Placeholders: ${PLACEHOLDERS.map(p => `{${p}}`).join(', ')}.`);
    }
    const jobUrl = text.includes('{job_url}') ? await ctx.jobUrl() : undefined;
    return fillRunFacts(text, await ctx.runContext(), jobUrl);
}
function incidentOutputs(incident) {
    if (!incident)
        return {};
    return { 'incident-id': str(incident.id), 'incident-status': str(incident.status) };
}
function incidentSummary(title, incidents, lines = []) {
    return {
        title,
        lines,
        tables: incidents.length > 0
            ? [
                {
                    head: ['Incident', 'ID', 'Status', 'Message', 'Created'],
                    rows: incidents.map(i => [i.title, i.id, i.status, i.message, i.createdAt])
                }
            ]
            : []
    };
}
/** A result with `notes` (identical duplicates left) before its lines. */
function withNotes(result, notes) {
    result.summary.lines.unshift(...notes);
    return result;
}
/**
 * `converge` (open-incident after a miss): converge with racing runs;
 * `confirmed` when the reads agreed the title was absent (converge.ts).
 */
async function incidents_create(ctx, existing, converge) {
    const body = {
        ...ctx.config.incident,
        status: str(ctx.config.incident.status) || DEFAULT_INCIDENT_STATUS,
        message: await incidentMessage(ctx, failureMessage)
    };
    const before = existing ?? (await ctx.api.listIncidents());
    if (dryRunSkips(ctx, 'POST', paths.incidents, body)) {
        return {
            outputs: { result: body, changed: true },
            summary: incidentSummary('Incident would be opened (dry run)', [body])
        };
    }
    const { item, tookMs, recovered } = await ctx.api.createIncident(body, before);
    ctx.log.info(`Opened incident ${item.id}: ${str(item.title)}`);
    if (!converge) {
        return {
            outputs: { ...incidentOutputs(item), result: item, changed: true },
            summary: incidentSummary('Incident opened', [item])
        };
    }
    // Ours as created: the fields sent, with what the server answered over them.
    const mine = { ...body, ...item };
    const { survivor, kept } = await withKnownOutputs({ ...incidentOutputs(mine), changed: true }, async () => {
        const [converged] = await convergeCreated([mine], {
            what: 'incident',
            recovered: new Set(recovered ? [item.id] : []),
            confirmed: converge.confirmed,
            list: () => ctx.api.listIncidents(),
            nameOf: i => (typeof i.title === 'string' && !isResolved(i) ? i.title : undefined),
            kindOf: () => '',
            remove: (duplicate, kept) => resolveAsDuplicate(ctx, duplicate, kept),
            sleep: ms => ctx.clock.sleep(ms, ctx.signal),
            settleMs: settleMs(tookMs, ctx.config.requestTimeoutMs),
            log: ctx.log
        });
        return converged;
    });
    const keptNote = keptLine('incident', survivor, kept);
    if (keptNote)
        ctx.log.warning(keptNote);
    const notes = keptNote ? [keptNote] : [];
    if (survivor.id === item.id) {
        return {
            outputs: { ...incidentOutputs(item), result: item, changed: true },
            summary: incidentSummary('Incident opened', [item], notes)
        };
    }
    const line = converge.confirmed
        ? `A concurrent run opened an incident of this title at the same time: using ${survivor.id}, the smallest id (every run uses it); this run's ${item.id} was resolved as its duplicate.`
        : `Another unresolved incident of this title was there at the same time (opened by a concurrent run, or missed by the look): using ${survivor.id}; this run's ${item.id} was resolved as its duplicate.`;
    ctx.log.info(line);
    const updated = await apply(ctx, survivor, body, 'Incident opened');
    updated.outputs.changed = true;
    updated.summary.lines.unshift(line, ...notes);
    return updated;
}
/** PUT the whole incident merged with `changes`, unless nothing differs. */
async function apply(ctx, current, changes, title) {
    const fields = differences(changes, current);
    if (fields.length === 0) {
        return {
            outputs: { ...incidentOutputs(current), result: current, changed: false },
            summary: incidentSummary(`${title}: nothing to change`, [current], ['Nothing differs: no request sent.'])
        };
    }
    const body = { ...writableOf(current), ...changes };
    if (dryRunSkips(ctx, 'PUT', paths.incident(current.id), body)) {
        const would = { ...current, ...changes };
        return {
            outputs: { ...incidentOutputs(would), result: would, changed: true },
            summary: incidentSummary(`${title} (dry run)`, [would], [`Would change: ${fields.join(', ')}.`])
        };
    }
    const updated = await withKnownOutputs(incidentOutputs(current), () => ctx.api.updateIncident(current.id, body));
    ctx.log.info(`Updated incident ${updated.id}: ${fields.join(', ')}`);
    return {
        outputs: { ...incidentOutputs(updated), result: updated, changed: true },
        summary: incidentSummary(title, [updated], [`Changed: ${fields.join(', ')}.`])
    };
}
/**
 * The incident incident-id names, or else the unresolved one incident-title
 * means (identical duplicates warned about: `notes`).
 */
async function target(ctx, loose = false) {
    const all = await ctx.api.listIncidents();
    const id = ctx.config.incidentId;
    if (id) {
        const incident = all.find(i => i.id === id);
        if (!incident)
            throw new OperationError(`incident ${id} not found (looked through ${all.length} incidents)`);
        return { incident, notes: [] };
    }
    const title = str(ctx.config.incident.title);
    // The exact title first; only when no unresolved incident has it, the loose match.
    const exact = byTitle(all, title);
    const titled = exact.incident || !loose ? exact : byTitle(all, title, true);
    return { incident: titled.incident, notes: titles_warnDuplicates(ctx, titled) };
}
const createIncident = ctx => incidents_create(ctx);
const openIncident = async (ctx) => {
    const title = str(ctx.config.incident.title);
    const first = await ctx.api.listIncidents();
    let titled = byTitle(first, title);
    if (!titled.incident) {
        // A miss is confirmed by a second full read before anything is created (converge.ts).
        const read = await confirmMiss(first, () => ctx.api.listIncidents(), list => !!byTitle(list, title).incident);
        titled = byTitle(read.list, title);
        if (!titled.incident) {
            if (!read.agreed)
                ctx.log.info(unagreedLine('incident', read.reads));
            return incidents_create(ctx, read.list, { confirmed: read.agreed });
        }
        ctx.log.info(`The first read of the incidents did not show an unresolved ${JSON.stringify(title)}; the next read did (the list shifted while it was read): using ${titled.incident.id}, nothing opened.`);
    }
    const current = titled.incident;
    const notes = titles_warnDuplicates(ctx, titled);
    const changes = {
        ...ctx.config.incident,
        message: await incidentMessage(ctx, failureMessage),
        status: str(ctx.config.incident.status) || str(current.status) || DEFAULT_INCIDENT_STATUS
    };
    const updated = await apply(ctx, current, changes, 'Incident updated');
    return withNotes(updated, [...notes, ...(await othersAfterUpdate(ctx, current, updated))]);
};
const updateIncident = async (ctx) => {
    const { incident, notes } = await target(ctx);
    if (!incident)
        throw new OperationError(`no unresolved incident titled ${JSON.stringify(ctx.config.incident.title)}`);
    const changes = { ...ctx.config.incident };
    if (!ctx.config.incidentId)
        delete changes.title;
    if (typeof changes.message === 'string')
        changes.message = await filled(ctx, changes.message);
    return withNotes(await apply(ctx, incident, changes, 'Incident updated'), notes);
};
const resolveIncident = async (ctx) => {
    const { incident, notes } = await target(ctx, true);
    if (!incident || isResolved(incident)) {
        const why = incident
            ? `Incident ${incident.id} is already resolved.`
            : `No unresolved incident titled ${str(ctx.config.incident.title)}: nothing to resolve.`;
        ctx.log.info(why);
        return {
            outputs: { ...incidentOutputs(incident), result: incident ?? null, changed: false },
            summary: incidentSummary('Nothing to resolve', incident ? [incident] : [], [why])
        };
    }
    const changes = { status: RESOLVED, message: await incidentMessage(ctx, resolvedMessage) };
    return withNotes(await apply(ctx, incident, changes, 'Incident resolved'), notes);
};
const listIncidents = async (ctx) => {
    const all = await ctx.api.listIncidents();
    return {
        outputs: { ...incidentOutputs(all[0]), result: all, count: all.length },
        summary: incidentSummary(`Incidents (${all.length})`, all)
    };
};

;// CONCATENATED MODULE: ./src/operations/status-pages/status-pages.ts
/** Status page operations: create, get, list. */



function pageSummary(title, pages) {
    return {
        title,
        lines: [],
        tables: pages.length > 0
            ? [
                {
                    head: ['Status page', 'ID', 'Other fields'],
                    rows: pages.map(({ id, name, ...rest }) => [name, id, canonical(rest)])
                }
            ]
            : []
    };
}
const createStatusPage = async (ctx) => {
    const body = ctx.config.statusPage;
    const before = await ctx.api.listStatusPages();
    if (dryRunSkips(ctx, 'POST', paths.statusPages, body)) {
        return {
            outputs: { result: body, changed: true },
            summary: pageSummary('Status page would be created (dry run)', [body])
        };
    }
    const { item } = await ctx.api.createStatusPage(body, before);
    ctx.log.info(`Created status page ${item.id} (${str(item.name)})`);
    return {
        outputs: { 'status-page-id': item.id, result: item, changed: true },
        summary: pageSummary('Status page created', [item])
    };
};
const getStatusPage = async (ctx) => {
    const id = ctx.config.statusPageId;
    let page;
    if (id) {
        page = await ctx.api.getStatusPage(id);
        if (!page)
            throw new OperationError(`status page ${id} not found (GET ${paths.statusPage(id)} answered 404)`);
    }
    else {
        const name = str(ctx.config.statusPage.name);
        const all = await ctx.api.listStatusPages();
        const matches = all.filter(p => p.name === name);
        if (matches.length > 1) {
            throw new OperationError(`${matches.length} status pages are named ${JSON.stringify(name)} (${matches.map(p => p.id).join(', ')}); use status-page-id`);
        }
        page = matches[0];
        if (!page)
            throw new OperationError(`no status page named ${JSON.stringify(name)} (looked through ${all.length})`);
    }
    return { outputs: { 'status-page-id': page.id, result: page }, summary: pageSummary('Status page', [page]) };
};
const listStatusPages = async (ctx) => {
    const all = await ctx.api.listStatusPages();
    return {
        outputs: { 'status-page-id': all[0]?.id ?? '', result: all, count: all.length },
        summary: pageSummary(`Status pages (${all.length})`, all)
    };
};

// EXTERNAL MODULE: ./src/lazy/modules.cjs
var modules = __nccwpck_require__(6544);
;// CONCATENATED MODULE: ./src/specs.ts
/**
 * Zod schemas of the specs a user writes: a check (the `check` input, or an
 * entry of a checks file), an incident, a status page. Fields the action knows
 * are validated; every other field passes through untouched.
 */


/** A required field that is missing says "needs a <field>"; a wrong one says what it must be. */
const specs_required = (field, otherwise) => (issue) => issue.input === undefined ? `needs a ${field}` : otherwise;
const nonEmpty = (field) => schemas_string({ error: specs_required(field, 'must be a non-empty string') })
    .check(refine(v => v.trim() !== '', { error: 'must be a non-empty string' }));
const specs_httpUrl = schemas_string({ error: specs_required('url', 'must be a string') }).check(superRefine((value, ctx) => {
    let url;
    try {
        url = new URL(value);
    }
    catch {
        ctx.addIssue({ code: 'custom', message: `must be an absolute URL, got ${quote(value)}` });
        return;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        ctx.addIssue({ code: 'custom', message: 'must be an http or https URL' });
    }
}));
const wholeAboveZero = schemas_int({ error: 'must be a whole number above 0' })
    .check(_positive({ error: 'must be a whole number above 0' }));
const checkFields = {
    name: nonEmpty('name'),
    url: specs_httpUrl,
    type: nonEmpty('type'),
    interval: wholeAboveZero,
    alertChannels: array(schemas_string(), { error: 'must be a list of strings' }),
    status: nonEmpty('status')
};
/** A check spec (the `check` input): every known field optional. */
const CheckSpecSchema = looseObject({
    name: optional(checkFields.name),
    url: optional(checkFields.url),
    type: optional(checkFields.type),
    interval: optional(checkFields.interval),
    alertChannels: optional(checkFields.alertChannels),
    status: optional(checkFields.status)
});
/** An entry of a checks file: name and url required. */
const CheckEntrySchema = schemas_extend(CheckSpecSchema, { name: checkFields.name, url: checkFields.url });
/** A checks file: a list of entries, or a mapping with a `checks` list. */
const ChecksFileSchema = union([
    array(unknown()),
    pipe(looseObject({ checks: array(unknown()) }), transform(file => file.checks))
], { error: 'must hold a list of checks, or a mapping with a "checks" list' });
const IncidentSpecSchema = looseObject({
    title: optional(nonEmpty('title')),
    message: optional(nonEmpty('message')),
    status: optional(nonEmpty('status'))
});
const StatusPageSpecSchema = looseObject({ name: optional(nonEmpty('name')) });
/**
 * The first problem of a spec, as "<field> <what is wrong>" (or "needs a
 * <field>"), or undefined when the spec is valid.
 */
function specProblem(schema, spec) {
    const result = schema.safeParse(spec);
    if (result.success)
        return undefined;
    const issue = result.error.issues[0];
    const field = issue.path.join('.');
    if (issue.message.startsWith('needs a '))
        return issue.message;
    return field ? `${field} ${issue.message}` : issue.message;
}

;// CONCATENATED MODULE: ./src/operations/sync/checks-file.ts
/**
 * The checks file of sync-checks: read safely (a regular file, at most 5 MiB,
 * never read past that) and parsed into validated check specs, with errors
 * that name the file, the entry and its line.
 */






class ChecksFileError extends Error {
    place;
    constructor(message, 
    /** Where in the repository the problem is, when known: the failure is annotated there. */
    place) {
        super(message);
        this.place = place;
        this.name = 'ChecksFileError';
    }
}
/** Variables of the runner and of the action itself: never readable from a checks file. */
const OFF_LIMITS = /^(ACTIONS_|RUNNER_|INPUT_|STATE_|GITHUB_TOKEN$)/;
/**
 * Names that say the value is a secret: masked in the log, *** in outputs,
 * summary, comment and plan file. Wide on purpose (any KEY, PASS, SIGN,
 * CERT...): masking a value that was not secret costs little, posting one
 * that was costs a rotation. `${secret:NAME}` marks any other variable.
 */
const SECRET_NAME = /TOKEN|SECRET|PASS|PWD|PRIVATE|CREDENTIAL|KEY|AUTH|SIGN|CERT|SESSION|COOKIE|SALT|BEARER|JWT|DSN|CONN_?STR/i;
/** The fields of a check the action knows; the others pass through. */
const KNOWN_FIELDS = ['name', 'url', 'type', 'interval', 'alertChannels', 'status'];
/** `${NAME}` (a variable), `${secret:NAME}` (a variable that is a secret), or `$${` (a literal `${`). */
const TEMPLATE = /\$\$\{|\$\{(secret:)?([A-Za-z_][A-Za-z0-9_]*)\}/g;
/** The known field a name is a slip of (within two edits, case aside), if any. */
function suggestField(name) {
    return KNOWN_FIELDS.includes(name) ? undefined : closest(name, KNOWN_FIELDS, 1, 2)[0];
}
/**
 * Parse and validate a checks file's text: a list of specs, or `{checks: [...]}`.
 * `${NAME}` in a value is read from the environment (after parsing, so a
 * variable can never add structure: a plain `${PORT}` that holds 8080 is the
 * number 8080, anything else stays text). Errors name the file and the line.
 */
function parseChecksFile(text, file, options = {}) {
    const lineCounter = new (yaml_default()).LineCounter();
    const doc = yaml_default().parseDocument(text, { schema: 'core', uniqueKeys: true, lineCounter, prettyErrors: false });
    const lineOf = (node) => (node?.range ? lineCounter.linePos(node.range[0]).line : undefined);
    const placeOf = (line) => ({ file: options.annotateAs ?? file, line });
    const fail = (message, line) => {
        throw new ChecksFileError(`checks-file ${file}: ${message}`, placeOf(line));
    };
    if (doc.errors.length > 0) {
        const { line, message } = yamlSyntaxError(doc.errors, lineCounter, text);
        fail(`not valid YAML or JSON (line ${line}): ${message}`, line);
    }
    // Every unset variable is named at once (as written, with its lines), not one per run.
    const unset = new Map();
    fillTemplates(doc, (name, node, marked) => {
        if (OFF_LIMITS.test(name)) {
            fail(`line ${lineOf(node)}: \${${name}} is a variable of the runner or of the action; a checks file cannot read it`, lineOf(node));
        }
        const value = options.env?.[name];
        if (value === undefined) {
            const written = marked ? `\${secret:${name}}` : `\${${name}}`;
            unset.set(written, [...(unset.get(written) ?? []), lineOf(node) ?? 0]);
            return '';
        }
        if (marked || SECRET_NAME.test(name))
            options.secret?.(value);
        return value;
    });
    if (unset.size > 0)
        failUnset(unset, fail);
    let seq = doc.contents;
    if (yaml_default().isMap(seq))
        seq = seq.get('checks', true);
    const items = yaml_default().isSeq(seq) ? seq.items : [];
    const shape = ChecksFileSchema.safeParse(doc.toJS({ maxAliasCount: 100 }));
    if (!shape.success)
        fail(shape.error.issues[0].message, lineOf(doc.contents));
    const list = shape.data;
    const names = new Map();
    return list.map((entry, i) => {
        const node = items[i];
        const line = lineOf(node);
        const where = `entry ${i + 1}${line !== undefined ? ` (line ${line})` : ''}`;
        if (!isMapping(entry))
            fail(`${where} must be a mapping of check fields`, line);
        const spec = entry;
        const named = typeof spec.name === 'string' && spec.name.trim() !== '' ? ` (${JSON.stringify(spec.name)})` : '';
        const fieldLine = (field) => lineOf(node?.items?.find(pair => pair.key?.value === field)?.key) ?? line;
        const problem = specProblem(CheckEntrySchema, spec);
        if (problem?.startsWith('needs a ')) {
            // A required field written otherwise (`URL`, `ur`, `Name`) is the likely cause: name it, at its line.
            const wanted = problem.slice('needs a '.length);
            const slip = Object.keys(spec).find(key => suggestField(key) === wanted);
            fail(`${where}${named} ${problem}${slip === undefined ? '' : `: it has ${JSON.stringify(slip)} (did you mean ${JSON.stringify(wanted)}?)`}`, slip === undefined ? line : fieldLine(slip));
        }
        if (problem)
            fail(`${where}${named}: ${problem}`, fieldLine(problem.split(' ')[0].split('.')[0]));
        const earlier = names.get(spec.name);
        if (earlier !== undefined)
            fail(`${where}: the name ${JSON.stringify(spec.name)} is also used by entry ${earlier}`, line);
        names.set(spec.name, i + 1);
        for (const key of Object.keys(spec)) {
            const suggestion = suggestField(key);
            if (suggestion) {
                const said = JSON.stringify(key);
                options.warn?.(suggestion in spec
                    ? `checks-file ${file}: ${where}${named} has both ${JSON.stringify(suggestion)} and ${said}: ${said} is sent as written, as a field of its own (fields the action does not know pass through).`
                    : `checks-file ${file}: ${where}${named} has the field ${said}: did you mean ${JSON.stringify(suggestion)}? It is sent as written (fields the action does not know pass through).`, placeOf(fieldLine(key)));
            }
        }
        return spec;
    });
}
/** The most unset variables one message names; the rest are counted. */
const MAX_UNSET_NAMED = 20;
/** Unset variables (as written, with their lines): one error naming them all, at the first one's line. */
function failUnset(unset, fail) {
    const literal = '(write $${ for a literal ${)';
    const each = [...unset].map(([written, at]) => ({ written, lines: [...new Set(at)] }));
    const first = each[0].lines[0];
    if (each.length === 1) {
        const { written, lines } = each[0];
        const name = written.replace(/^\$\{(secret:)?|\}$/g, '');
        const where = `line${lines.length > 1 ? 's' : ''} ${lines.join(', ')}`;
        return fail(`${where}: ${written} names the environment variable ${name}, which is not set ${literal}`, first);
    }
    const named = each
        .slice(0, MAX_UNSET_NAMED)
        .map(v => `${v.written} (line${v.lines.length > 1 ? 's' : ''} ${v.lines.join(', ')})`);
    const list = each.length > MAX_UNSET_NAMED
        ? `${named.join(', ')} and ${each.length - MAX_UNSET_NAMED} more`
        : `${named.slice(0, -1).join(', ')} and ${named[named.length - 1]}`;
    return fail(`${list} name ${each.length} environment variables that are not set; set each in the step's env: (a secret as NAME: \${{ secrets.NAME }}) ${literal}`, first);
}
/**
 * Replace `${NAME}` in every value of the document (never in keys) with
 * `valueOf(NAME)` (`${secret:NAME}` tells it the value is a secret); `$${` is a literal `${`.
 */
function fillTemplates(doc, valueOf) {
    yaml_default().visit(doc, {
        Scalar(key, node) {
            if (key === 'key' || typeof node.value !== 'string' || !node.value.includes('${'))
                return;
            const filled = node.value.replace(TEMPLATE, (_match, marked, name) => {
                return name === undefined ? '${' : valueOf(name, node, marked !== undefined);
            });
            node.value = node.type === 'PLAIN' ? scalarOf(filled) : filled;
        }
    });
}
/** A plain value as YAML would read it, when that is a number or a boolean; else the text. */
function scalarOf(text) {
    if (/^[-+]?(\d+|\d*\.\d+)([eE][-+]?\d+)?$/.test(text.trim()))
        return Number(text);
    if (/^(true|True|TRUE|false|False|FALSE)$/.test(text.trim()))
        return /^t/i.test(text.trim());
    return text;
}
/** The largest checks file read: bigger ones are refused before they are read whole. */
const MAX_CHECKS_FILE_BYTES = 5 * 1024 * 1024;
/**
 * A checks file's text: a regular file of at most MAX_CHECKS_FILE_BYTES, never
 * read past that. The YAML parser parseChecksFile needs is loaded with it.
 */
async function readChecksFile(given, file) {
    await (0,modules.load)('yaml');
    const cannot = (why) => new ChecksFileError(`checks-file ${given}: ${why}`);
    let handle;
    try {
        handle = await (0,promises_namespaceObject.open)(file, 'r');
    }
    catch (error) {
        const code = error.code;
        const hint = code === 'ENOENT'
            ? '; is the repository checked out? Add `- uses: actions/checkout@v4` before this step (a relative path is relative to GITHUB_WORKSPACE)'
            : '';
        throw cannot(`cannot read ${file}${code ? ` (${code})` : ''}${hint}`);
    }
    try {
        const info = await handle.stat();
        if (!info.isFile())
            throw cannot(`${file} is not a regular file`);
        const tooBig = (size) => cannot(`${file} is ${size}, more than the ${MAX_CHECKS_FILE_BYTES} bytes (5 MiB) a checks file may have; split it`);
        if (info.size > MAX_CHECKS_FILE_BYTES)
            throw tooBig(`${info.size} bytes`);
        // Read one byte more than allowed: a file that grew since stat() is caught too.
        const buffer = Buffer.alloc(MAX_CHECKS_FILE_BYTES + 1);
        let length = 0;
        for (;;) {
            const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
            if (bytesRead === 0)
                break;
            length += bytesRead;
            if (length > MAX_CHECKS_FILE_BYTES)
                throw tooBig('over that size');
        }
        return buffer.subarray(0, length).toString('utf8');
    }
    finally {
        await handle.close();
    }
}

;// CONCATENATED MODULE: ./src/operations/sync/export-file.ts



/** Query parameters whose values are secrets by their name. */
const SECRET_PARAMETER = /token|key|secret|pass(word)?|pwd|sig(nature)?|auth|credential|session/i;
/** The variable name a check's secret is written as: CHECK_<NAME>_<PART>, letters, digits and _ only. */
function variableFor(check, part) {
    const slug = `${check}_${part}`
        .normalize('NFKD')
        .replace(/[^A-Za-z0-9]+/g, '_')
        .replace(/^_+|_+$/g, '')
        .toUpperCase();
    return `CHECK_${slug || 'SECRET'}`;
}
/**
 * `url` with its secrets as placeholders: the userinfo (`user:pass@`) and the
 * value of every query parameter named like a token, key, secret, password or
 * signature. The text around them is kept to the character (the service's
 * URL, not a parsed and re-written one), a literal `${` in it escaped, so the
 * placeholders filled back in give the very URL the service has.
 */
function liftSecrets(url, check, taken) {
    const lifted = [];
    // Where a placeholder goes until the rest is escaped: a private-use character the URL does not hold.
    let code = 0xe000;
    while (url.includes(String.fromCharCode(code)))
        code++;
    const mark = String.fromCharCode(code);
    const lift = (value, part, where) => {
        let variable = variableFor(check, part);
        for (let n = 2; taken.has(variable); n++)
            variable = `${variableFor(check, part)}_${n}`;
        taken.add(variable);
        lifted.push({ variable, check, where, value });
        return `${mark}${variable}${mark}`;
    };
    // The userinfo is everything up to the last @ of the authority (a password may hold an @).
    let out = url.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/?#]*)@/, (_m, scheme, userinfo) => `${scheme}${lift(userinfo, 'USERINFO', 'userinfo')}@`);
    out = out.replace(/([?&])([^=&#]+)=([^&#]*)/g, (match, sep, key, value) => {
        let name = key;
        try {
            name = decodeURIComponent(key.replace(/\+/g, ' '));
        }
        catch {
            // a key that does not decode is judged as written
        }
        if (value === '' || !SECRET_PARAMETER.test(name))
            return match;
        return `${sep}${key}=${lift(value, name, `query parameter ${name}`)}`;
    });
    const text = escapeTemplates(out);
    // What a URL parser still reads as a user or password was not lifted (`https:user:pw@host`, a
    // leading blank): never written, since the file is meant to be committed.
    if (hasCredentials(out
        .split(mark)
        .filter((_, i) => i % 2 === 0)
        .join(''))) {
        throw new ExportError(`the URL of check ${JSON.stringify(check)} holds a user name or password in a form export-checks cannot separate from the rest; rewrite it as https://user:password@host/... (or drop the credentials), then export again. Nothing was written.`);
    }
    return {
        url: text.replace(new RegExp(`${mark}([A-Z0-9_]+)${mark}`, 'g'), (_m, variable) => `\${secret:${variable}}`),
        lifted
    };
}
/** Does a URL parser read a user name or password in `url`? */
function hasCredentials(url) {
    try {
        const parsed = new URL(url);
        return parsed.username !== '' || parsed.password !== '';
    }
    catch {
        return false;
    }
}
/** A literal `${` written so the checks file reader gives it back (`$${`), in every string of a value. */
function escapeTemplates(value) {
    if (typeof value === 'string')
        return value.replace(/\$\{/g, () => '$${');
    if (Array.isArray(value))
        return value.map(escapeTemplates);
    if (value !== null && typeof value === 'object') {
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, escapeTemplates(v)]));
    }
    return value;
}
/** Code-unit order: the same on every machine, whatever its locale. */
const byName = (a, b) => {
    const [x, y] = [str(a.name), str(b.name)];
    return x < y ? -1 : x > y ? 1 : 0;
};
class ExportError extends Error {
    constructor(message) {
        super(message);
        this.name = 'ExportError';
    }
}
/**
 * The entries of a checks file for `checks`, sorted by name: every writable
 * field the service returned (null and absent alike left out), `status` only
 * for a paused check, secrets in URLs lifted into variables. Two checks of
 * one name, or a check a checks file cannot state, are an ExportError.
 */
function exportEntries(checks) {
    const seen = new Map();
    const taken = new Set();
    const lifted = [];
    const entries = [];
    const ids = [];
    for (const check of [...checks].sort(byName)) {
        const name = str(check.name);
        const other = seen.get(name);
        if (other !== undefined) {
            throw new ExportError(`two checks share the name ${JSON.stringify(name)} (${other} and ${check.id}); a checks file matches checks by name, so it cannot hold both. Rename or delete one (update-check or delete-check with its check-id), then export again. Nothing was written.`);
        }
        seen.set(name, check.id);
        const entry = {};
        for (const [field, value] of Object.entries(writableOf(check))) {
            if (value === undefined || value === null)
                continue;
            if (field === 'status' && value !== 'paused')
                continue;
            entry[field] = value;
        }
        const problem = specProblem(CheckEntrySchema, entry);
        if (problem) {
            throw new ExportError(`check ${check.id} (${JSON.stringify(name)}) cannot be written as a checks-file entry: ${problem}. Fix the check, or export a name-prefix that leaves it out. Nothing was written.`);
        }
        const escaped = escapeTemplates(entry);
        if (typeof entry.url === 'string') {
            const secret = liftSecrets(entry.url, name, taken);
            lifted.push(...secret.lifted);
            escaped.url = secret.url;
        }
        entries.push(escaped);
        ids.push(check.id);
    }
    return { entries, ids, lifted };
}
/**
 * The file's text: JSON (a list) when `path` ends in .json, else YAML with a
 * short header saying where it came from and how to use it. Every string is
 * double-quoted, so no value can be read back as another type (`yes`, `null`,
 * `0x10`, `1e3`, `~`) or lose its spaces. The YAML parser must be loaded.
 */
function checksFileText(path, entries, about) {
    if (/\.json$/i.test(path))
        return `${JSON.stringify(entries, null, 2)}\n`;
    const prefix = about.namePrefix;
    const header = [
        `Checks of ${about.baseUrl}${prefix !== undefined ? ` whose names start with ${JSON.stringify(prefix)}` : ''}, written by export-checks.`,
        `Keep them as code with sync-checks (checks-file: ${path}${prefix !== undefined ? `, prune-prefix: ${JSON.stringify(prefix)}` : ''}).`,
        ...(about.variables.length > 0
            ? [`Set these variables for sync-checks, from your secrets: ${about.variables.join(', ')}.`]
            : [])
    ];
    const doc = new (yaml_default()).Document(entries);
    doc.commentBefore = header.map(line => ` ${line.replace(/[\r\n\u2028\u2029]/g, ' ')}`).join('\n');
    return doc.toString({ defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN', lineWidth: 0 });
}

;// CONCATENATED MODULE: ./src/operations/sync/export.ts
/**
 * export-checks: bring an account under code. Every check (or those under
 * name-prefix) written as a checks file that sync-checks accepts and that
 * plans nothing right after: read until two reads agree, written whole or not at all, sorted by name,
 * secrets in URLs as variables the step lists.
 */







/** Most full reads of the list before two agree. */
const export_MAX_READS = 4;
/**
 * The service's checks, read until two full reads in a row hold the same
 * ids. A list that shifts while it is read (offset paging while someone
 * creates or deletes) can skip a row: a file without it would make a later
 * sync with prune delete a check that exists. Two reads that agree are
 * taken as the list; reads that never agree refuse the export.
 */
async function steadyList(ctx) {
    const idsOf = (list) => JSON.stringify(list.map(c => c.id).sort());
    let last = await ctx.api.listChecks();
    for (let read = 2; read <= export_MAX_READS; read++) {
        const next = await ctx.api.listChecks();
        if (idsOf(next) === idsOf(last))
            return next;
        ctx.log.info(`The list of checks changed between two reads (${last.length}, then ${next.length}): reading it again.`);
        last = next;
    }
    throw new OperationError(`export-checks: the list of checks changed in each of ${export_MAX_READS} reads (checks are being created or deleted meanwhile, or the list shifts while it is paged); a file missing a check would make a sync with prune delete it, so nothing was written. Export again when the service is quiet.`);
}
const exportChecks = async (ctx) => {
    const { config } = ctx;
    const given = config.checksFile;
    const file = external_node_path_namespaceObject.resolve(ctx.workspace, given);
    const prefix = config.namePrefix;
    await (0,modules.load)('yaml');
    const all = await steadyList(ctx);
    const checks = prefix === undefined ? all : all.filter(c => str(c.name).startsWith(prefix));
    let exported;
    try {
        exported = exportEntries(checks);
    }
    catch (error) {
        if (error instanceof ExportError)
            throw new OperationError(`export-checks: ${error.message}`);
        throw error;
    }
    const { entries, ids, lifted } = exported;
    // The values lifted out are secrets from now on: masked in the log, *** in everything written.
    for (const secret of lifted)
        ctx.addSecret(secret.value);
    // A secret (the key, or a lifted value) still in an entry, elsewhere than where it was lifted,
    // would be committed with the file: refuse instead.
    const holding = entries.findIndex(e => ctx.redact(JSON.stringify(e)) !== JSON.stringify(e));
    if (holding >= 0) {
        throw new OperationError(`export-checks: check ${ids[holding]} (${JSON.stringify(str(entries[holding].name))}) holds a secret (the api-key, or a value lifted from a URL) in a place export-checks does not turn into a variable; a checks file is meant to be committed, so nothing was written. Remove the secret from there, or export a name-prefix that leaves the check out.`);
    }
    if (entries.length === 0) {
        ctx.log.warning(`export-checks: no check${prefix === undefined ? ' on the service' : ` whose name starts with ${JSON.stringify(prefix)}`}: the file lists none. sync-checks refuses such a file with prune and no prune-prefix (it would delete every check).`);
    }
    const variables = lifted.map(l => l.variable);
    const text = checksFileText(given, entries, { baseUrl: config.baseUrl, namePrefix: prefix, variables });
    if (Buffer.byteLength(text) > MAX_CHECKS_FILE_BYTES) {
        throw new OperationError(`export-checks: the checks file would be ${Buffer.byteLength(text)} bytes, more than the ${MAX_CHECKS_FILE_BYTES} bytes (5 MiB) sync-checks reads; nothing was written. Export the fleet in parts with name-prefix.`);
    }
    try {
        await writeWhole(file, text);
    }
    catch (error) {
        throw new OperationError(`checks-file ${given}: ${cannotWrite(file, error)}; nothing was written`);
    }
    const scope = prefix === undefined ? '' : ` whose names start with ${JSON.stringify(prefix)}`;
    ctx.log.info(`Wrote ${entries.length} check(s)${scope} to ${given} (${Buffer.byteLength(text)} bytes).`);
    if (variables.length > 0) {
        ctx.log.info(`The file holds no secret: ${variables.length} value(s) in URLs are variables. Set them for sync-checks (from your secrets): ${variables.join(', ')}.`);
    }
    const lines = [
        `Wrote ${entries.length} of the service's ${all.length} check(s)${scope} to ${given}.`,
        `Right after this export, sync-checks of ${given}${prefix === undefined ? '' : ` with prune-prefix ${JSON.stringify(prefix)}`} plans nothing.`,
        ...(variables.length > 0
            ? [`The file holds no secret: set these ${variables.length} variable(s) for sync-checks, from your secrets.`]
            : [])
    ];
    return {
        outputs: { count: entries.length, result: { path: given, count: entries.length, variables } },
        summary: {
            title: 'Checks exported',
            lines,
            tables: [
                ...(variables.length > 0
                    ? [{ head: ['Variable', 'Check', 'Where in the URL'], rows: lifted.map(l => [l.variable, l.check, l.where]) }]
                    : []),
                {
                    head: ['Check', 'ID', 'URL (as written)'],
                    rows: entries.map((e, i) => [e.name, ids[i], e.url])
                }
            ]
        }
    };
};

;// CONCATENATED MODULE: ./src/operations/sync/plan.ts



/** What is said of a paused entry (see PlanEntry.paused). */
const PAUSED_NOTE = 'status: paused in the service, not stated in the file (monitoring is off; a sync keeps it paused: state status: up in the file to resume it, or status: paused to keep it)';
/** The entries that are drift: a create, update or delete, or a check paused where the file does not say so. */
const drifting = (plan) => plan.filter(e => e.action !== 'unchanged' || e.paused);
/** The action as people read it: an unchanged entry that is paused (see PlanEntry.paused) shows as `paused`. */
const shownAction = (e) => (e.action === 'unchanged' && e.paused ? 'paused' : e.action);
/** What a deleted check takes with it: its writable fields. */
function deleted(check) {
    const changes = {};
    for (const [field, value] of Object.entries(writableOf(check))) {
        if (field !== 'name' && value !== undefined && value !== null)
            changes[field] = { from: value };
    }
    return { fields: Object.keys(changes), changes };
}
/** What to do to make `server` equal `wanted`. */
function computePlan(wanted, server, options) {
    const plan = [];
    for (const spec of wanted) {
        const name = String(spec.name);
        // Identical checks of one name are used as one and never deleted here (sync warns about them).
        const { check: current } = findByName(server, name, ' on the service');
        const body = withDefaultType(spec);
        if (!current) {
            const changes = Object.fromEntries(Object.entries(body).map(([field, to]) => [field, { to }]));
            plan.push({ action: 'create', name, fields: Object.keys(body), changes, body });
            continue;
        }
        const fields = differences(body, current);
        const changes = Object.fromEntries(fields.map(field => [field, { from: current[field] ?? null, to: body[field] }]));
        // A check paused by hand that the file states as running: kept paused, shown as drift.
        const paused = !('status' in spec) && isPaused(current) ? { paused: true } : {};
        plan.push(fields.length > 0
            ? {
                action: 'update',
                name,
                id: current.id,
                fields,
                changes,
                body: { ...writableOf(current), ...body },
                ...paused
            }
            : { action: 'unchanged', name, id: current.id, fields: [], changes: {}, ...paused });
    }
    if (options.prune) {
        const listed = new Set(wanted.map(s => String(s.name)));
        for (const check of uniqueById(server)) {
            const name = str(check.name);
            if (listed.has(name))
                continue;
            if (options.prunePrefix !== undefined && !name.startsWith(options.prunePrefix))
                continue;
            plan.push({ action: 'delete', name, id: check.id, ...deleted(check) });
        }
    }
    return plan;
}
function countOf(plan, action, onlyApplied = false) {
    return plan.filter(e => e.action === action && (!onlyApplied || e.outcome === 'applied' || action === 'unchanged'))
        .length;
}
/** The order a plan is shown in: what changes first. */
function sortedForShow(plan) {
    const order = ['create', 'update', 'delete', 'paused', 'unchanged'];
    return [...plan].sort((a, b) => order.indexOf(shownAction(a)) - order.indexOf(shownAction(b)));
}
/** A value as it is shown in a plan: JSON, cut to `max` characters (see wholeValues for the rest). */
function shown(value, max = 80) {
    const text = value === undefined ? 'absent' : JSON.stringify(value);
    return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
/**
 * Old and new value as `a → b`. Long ones are cut around where they differ,
 * with the same context on both sides, so a change is never hidden by the cut
 * (`…?region=eu-west&…` → `…?region=attacker.example&…`).
 */
function shownChange(from, to, max = 80) {
    const a = from === undefined ? 'absent' : canonical(from);
    const b = to === undefined ? 'absent' : canonical(to);
    if (a.length <= max && b.length <= max)
        return `${a} → ${b}`;
    let start = 0;
    while (start < a.length && start < b.length && a[start] === b[start])
        start++;
    let end = 0;
    while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end])
        end++;
    const context = 12;
    const from0 = Math.max(0, start - context);
    const cut = (text) => {
        const stop = Math.min(text.length, text.length - end + context);
        const middle = text.slice(from0, stop);
        const inner = middle.length > max ? `${middle.slice(0, max - 1)}…` : middle;
        return `${from0 > 0 ? '…' : ''}${inner}${stop < text.length ? '…' : ''}`;
    };
    return `${cut(a)} → ${cut(b)}`;
}
/** One field of an entry as shown: `interval: 60 → 30`; values cut to `max` (Infinity: whole). */
function describeField(entry, field, max) {
    const change = entry.changes[field] ?? {};
    if (entry.action === 'create')
        return `${field}: ${shown(change.to, max)}`;
    if (entry.action === 'delete')
        return `${field}: ${shown(change.from, max)}`;
    return `${field}: ${shownChange(change.from, change.to, max)}`;
}
/**
 * An entry's changes as one line: `interval: 60 → 30; url: "a" → "b"`. Values
 * longer than `max` are cut (see wholeValues for the rest). Pass an entry
 * whose values are already redacted: redaction comes before any cut.
 */
function describeChanges(entry, max = 80) {
    const fields = entry.fields.map(field => describeField(entry, field, max));
    return [...fields, ...(entry.paused ? [PAUSED_NOTE] : [])].join('; ');
}
/**
 * The fields of a plan that describeChanges cuts, each in full: `"name" url:
 * whole → whole`. A reviewer sees every character of what will be applied
 * (the job summary and the comment fold them under the table).
 */
function wholeValues(plan, max = 80) {
    const out = [];
    for (const entry of plan) {
        for (const field of entry.fields) {
            const whole = describeField(entry, field, Number.POSITIVE_INFINITY);
            if (whole !== describeField(entry, field, max))
                out.push(`${entry.action} ${JSON.stringify(entry.name)} ${whole}`);
        }
    }
    return out;
}
/** An entry as `result` and the plan file have it: no request body, no outcome unless applied. */
function entryResult(e) {
    return {
        action: e.action,
        name: e.name,
        id: e.id ?? null,
        fields: e.fields,
        changes: e.changes,
        ...(e.note ? { note: e.note } : {}),
        ...(e.paused ? { paused: true } : {}),
        ...(e.outcome ? { outcome: e.outcome } : {})
    };
}
/** Two plans' entries compared on what they would do (action, name, id, changes). */
function sameEntry(a, b) {
    const key = (e) => canonical({ action: e.action, name: e.name, id: e.id ?? null, changes: e.changes ?? {} });
    return key(a) === key(b);
}

;// CONCATENATED MODULE: ./src/operations/sync/plan-file.ts
/**
 * The plan on disk: `plan-file` writes it (`{"version": 1, "checks": [...]}`),
 * `approved-plan` reads one back and holds this run to it. Both files are
 * plain JSON that a workflow passes between jobs as an artifact.
 */





const PLAN_VERSION = 1;
/** The largest approved plan read (a plan of thousands of checks is far smaller). */
const MAX_PLAN_BYTES = 20 * 1024 * 1024;
class PlanFileError extends Error {
    constructor(message) {
        super(message);
        this.name = 'PlanFileError';
    }
}
/** The plan file's JSON: the entries as `result` has them, without outcomes. */
function planDocument(plan) {
    return { version: PLAN_VERSION, checks: plan.map(e => entryResult({ ...e, outcome: undefined })) };
}
/** Write the plan whole or not at all. */
async function writePlanFile(given, file, plan, redactValue = value => value) {
    try {
        // Secrets (a templated token) are *** in the file as in every other report: value by value, so it stays JSON.
        await writeWhole(file, JSON.stringify(redactValue(planDocument(plan)), null, 2) + '\n');
    }
    catch (error) {
        throw new PlanFileError(`plan-file ${given}: ${cannotWrite(file, error)}`);
    }
}
const label = (e) => `${String(e.action)} ${JSON.stringify(e.name)}${e.id ? ` (${String(e.id)})` : ''}`;
/** Read an approved plan: JSON with version 1 and a list of entries, else an error naming the input. */
async function readApprovedPlan(given, file) {
    const fail = (why) => {
        throw new PlanFileError(`approved-plan ${given}: ${why}`);
    };
    let text = '';
    try {
        const size = (await (0,promises_namespaceObject.stat)(file)).size;
        if (size > MAX_PLAN_BYTES)
            fail(`is ${size} bytes, more than the ${MAX_PLAN_BYTES} a plan file may have`);
        text = await (0,promises_namespaceObject.readFile)(file, 'utf8');
    }
    catch (error) {
        if (error instanceof PlanFileError)
            throw error;
        const code = error.code;
        fail(`cannot read ${file}${code ? ` (${code})` : ''}; it is the plan-file of the reviewed dry-run (download its artifact first)`);
    }
    let doc;
    try {
        doc = JSON.parse(text);
    }
    catch {
        fail('is not JSON written by plan-file');
    }
    if (!isMapping(doc) || doc.version !== PLAN_VERSION || !Array.isArray(doc.checks)) {
        fail(`is not a plan file of version ${PLAN_VERSION} ({"version": 1, "checks": [...]})`);
    }
    const checks = doc.checks;
    if (!checks.every(e => isMapping(e) && typeof e.action === 'string' && typeof e.name === 'string')) {
        fail('has an entry without an action and a name');
    }
    const seen = new Set();
    for (const entry of checks) {
        const key = `${String(entry.action)} ${JSON.stringify(entry.name)} ${String(entry.id ?? '')}`;
        if (seen.has(key))
            fail(`has the entry ${label(entry)} twice: it was not written by plan-file`);
        seen.add(key);
    }
    return checks;
}
/**
 * How the plan computed now differs from the approved one, one line per
 * difference (none: the same plan). Unchanged entries count too: a check
 * that changed on the service since the review makes the plans differ.
 */
function planDifferences(approved, now, redactValue = value => value) {
    // Compared as the plan file holds them: secrets *** on both sides.
    const current = now.map(e => redactValue(entryResult({ ...e, outcome: undefined })));
    const key = (e) => `${String(e.action)}\u0000${String(e.name)}\u0000${String(e.id ?? '')}`;
    const left = new Map(approved.map(e => [key(e), e]));
    const out = [];
    for (const entry of current) {
        const match = left.get(key(entry));
        if (!match) {
            const changes = Object.entries(isMapping(entry.changes) ? entry.changes : {});
            const what = changes.map(([field, change]) => `${field}: ${changeText(change)}`).join(', ');
            out.push(`now also ${label(entry)}${what ? ` (${what})` : ''}`);
            continue;
        }
        left.delete(key(entry));
        if (!sameEntry(match, entry)) {
            out.push(`${label(entry)} changes ${changed(match, entry)}`);
        }
    }
    for (const entry of left.values())
        out.push(`no longer ${label(entry)}`);
    return out;
}
/** One field's change as text: `60 → 30`, or only the side there is. */
function changeText(change) {
    if (!change)
        return 'no change';
    if (!('from' in change))
        return shown(change.to, 40);
    if (!('to' in change))
        return `${shown(change.from, 40)} (deleted)`;
    return `${shown(change.from, 40)} → ${shown(change.to, 40)}`;
}
/** Which fields' changes differ between an approved entry and the one computed now. */
function changed(approved, now) {
    const a = (isMapping(approved.changes) ? approved.changes : {});
    const b = now.changes;
    const fields = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    return fields
        .filter(f => canonical(a[f] ?? null) !== canonical(b[f] ?? null))
        .map(f => `${f} (approved: ${changeText(a[f])}; now: ${changeText(b[f])})`)
        .join(', ');
}

;// CONCATENATED MODULE: ./src/operations/sync/outcome.ts
/**
 * What a sync says about its plan, whatever happens to it: the plan as
 * people read it (summary), the counts and the plan as outputs, what stops a
 * plan before anything is written, drift, and a failure half-way.
 */




/**
 * The plan as people read it: a table (long values cut, marked) and, folded
 * under it, every cut value whole. Secrets are redacted value by value first,
 * so no cut can leave part of one.
 */
function planSummary(ctx, title, plan, lines) {
    const shownPlan = sortedForShow(plan).map(e => ctx.redactValue(e));
    const whole = wholeValues(shownPlan);
    const cell = (e) => {
        const text = e.note ?? describeChanges(e);
        return e.note === undefined && wholeValues([e]).length > 0 ? `${text} (whole values below)` : text;
    };
    return {
        title,
        lines,
        tables: [
            {
                head: ['Action', 'Check', 'ID', 'Changes', 'Outcome'],
                rows: shownPlan.map(e => [shownAction(e), e.name, e.id, cell(e), e.outcome])
            }
        ],
        details: whole.length > 0 ? [{ title: `Whole values (${whole.length})`, lines: whole }] : []
    };
}
/** Would the same request succeed later? 5xx, 429, network trouble, a timeout, a cancel: yes. A 4xx: no. */
function isTransient(error) {
    if (!(error instanceof ApiError))
        return false;
    switch (error.kind) {
        case 'network':
        case 'timeout':
        case 'rate-limit':
        case 'deadline':
        case 'cancelled':
            return true;
        case 'http':
            return error.status !== undefined && isRetryableStatus(error.status);
        default:
            return false;
    }
}
/** What a user needs after a sync failed half-way: which entry, what was applied, and whether a re-run helps. */
function halfWayMessage(changes, failed, error) {
    const applied = changes.filter(e => e.outcome === 'applied');
    const failedCount = changes.filter(e => e.outcome === 'failed').length;
    const notAttempted = changes.filter(e => e.outcome === 'not applied').length;
    const label = (e) => `${e.action} ${JSON.stringify(e.name)}`;
    const done = applied.length > 0
        ? `${applied.length} of ${changes.length} change(s) were applied before it stopped (${applied.map(label).join(', ')})`
        : `none of the ${changes.length} change(s) was applied`;
    const next = isTransient(error)
        ? 'The failure looks transient: running the step again finishes the job.'
        : 'Running the step again will fail the same way until the cause is fixed (the service refused this change).';
    return `sync-checks stopped at ${label(failed)}: ${error instanceof Error ? error.message : String(error)}. ${done}; ${failedCount} failed, ${notAttempted} not attempted. ${next}`;
}
/** fail-on-drift: each entry that drifted, with its changes (redacted, whole), as one failure. */
function driftMessage(ctx, changes) {
    const shown = sortedForShow(changes).map(e => ctx.redactValue(e));
    const listed = shown
        .slice(0, 20)
        .map(e => `${shownAction(e)} ${JSON.stringify(e.name)}${e.id ? ` (${e.id})` : ''}: ${describeChanges(e, Number.POSITIVE_INFINITY)}`);
    const more = shown.length > 20 ? `; and ${shown.length - 20} more (see the summary)` : '';
    return `sync-checks: drift: ${changes.length} check(s) differ from checks-file ${ctx.config.checksFile}: ${listed.join('; ')}${more}. Nothing was sent (dry run). Run the sync to put the file's values back, or change the file to keep the service's.`;
}
/** The counts and the plan, as outputs: before applying, and after. */
function planOutputs(plan, count, applied) {
    const changes = plan.filter(e => e.action !== 'unchanged');
    return {
        created: countOf(plan, 'create', applied),
        updated: countOf(plan, 'update', applied),
        deleted: countOf(plan, 'delete', applied),
        unchanged: countOf(plan, 'unchanged'),
        count,
        changed: applied ? changes.some(e => e.outcome === 'applied') : changes.length > 0,
        // Drift: the service differed from the file before anything was applied (a check paused outside the file too).
        drift: drifting(plan).length > 0,
        result: plan.map(entryResult)
    };
}
/**
 * What stops a plan before anything is written: more deletes than
 * max-deletions, or a plan that is not the approved one. The plan is in the
 * error's outputs and summary, so the reviewer sees what was refused.
 */
function refusal(ctx, plan, approved) {
    const deletes = countOf(plan, 'delete');
    if (deletes > ctx.config.maxDeletions) {
        return `sync-checks refused: the plan deletes ${deletes} checks, more than max-deletions (${ctx.config.maxDeletions}). Nothing was written. If these deletes are meant, raise max-deletions for this run; else fix the checks file or prune-prefix.`;
    }
    if (approved === undefined)
        return undefined;
    const differences = planDifferences(approved, plan, ctx.redactValue);
    if (differences.length === 0)
        return undefined;
    const shownDifferences = differences.slice(0, 10).join('; ');
    const more = differences.length > 10 ? `; and ${differences.length - 10} more` : '';
    return `sync-checks refused: the plan differs from approved-plan ${ctx.config.approvedPlan} in ${differences.length} place(s): ${shownDifferences}${more}. Nothing was written. Review the new plan (run the dry-run again) and approve it.`;
}

;// CONCATENATED MODULE: ./src/operations/sync/sync.ts
/**
 * Monitoring as code: make the service's checks equal to a file's list.
 * Read the file (validated before any request), list once, plan, print the
 * plan, then send one request per change, paced under the rate limit.
 */










/** Requests run at once during a sync; all still go through the client's pacing. */
const CONCURRENCY = 4;
async function applyEntry(ctx, entry, before) {
    const api = ctx.api;
    if (entry.action === 'create') {
        const { item, tookMs, recovered } = await api.createCheck(entry.body, before);
        entry.id = item.id;
        return { entry, item, tookMs, recovered };
    }
    else if (entry.action === 'update') {
        await api.updateCheck(entry.id, entry.body);
    }
    else if (entry.action === 'delete') {
        await api.deleteCheck(entry.id);
    }
    return undefined;
}
/**
 * After the creates: converge with concurrent runs that created the same
 * names (converge.ts). Each entry then names the survivor; a survivor whose
 * fields differ from the entry gets them. Returns the names that another run
 * created with another URL or type (left alone).
 */
async function convergeMade(ctx, made, confirmed) {
    const slowest = Math.max(...made.map(m => m.tookMs));
    const converged = await convergeChecks(ctx, made.map(m => ({ ...m.entry.body, ...m.item })), slowest, new Set(made.filter(m => m.recovered).map(m => m.item.id)), confirmed);
    const conflicts = [];
    for (const [index, { entry, item }] of made.entries()) {
        const { survivor, others, kept } = converged[index];
        if (others.length > 0)
            conflicts.push(`${JSON.stringify(entry.name)} (${others.map(c => c.id).join(', ')})`);
        const keptNote = keptLine('check', survivor, kept);
        if (keptNote)
            ctx.log.warning(`${entry.name}: ${keptNote}`);
        if (survivor.id === item.id)
            continue;
        entry.id = survivor.id;
        entry.note = confirmed
            ? `a concurrent run created a check of this name and URL at the same time: using ${survivor.id}, the smallest id (every run uses it); removed this run's ${item.id}`
            : `another check of this name and URL was there at the same time (a concurrent run's, or one the look missed): using ${survivor.id}; removed this run's ${item.id}`;
        ctx.log.info(`${entry.name}: ${entry.note}`);
        if (differences(entry.body, survivor).length > 0) {
            await ctx.api.updateCheck(survivor.id, { ...writableOf(survivor), ...entry.body });
        }
    }
    return conflicts;
}
/**
 * The service's checks to plan from. When the first full read misses a name
 * of the file, the miss is confirmed by another full read (converge.ts,
 * confirmMiss) before a create is planned: a name a later read shows is
 * updated, never created twice. `confirmed`: the reads agreed.
 */
async function serverChecks(ctx, wanted) {
    const first = await ctx.api.listChecks();
    const missing = (list) => {
        const have = new Set(list.map(c => c.name));
        return wanted.map(spec => String(spec.name)).filter(name => !have.has(name));
    };
    const missed = missing(first);
    if (missed.length === 0)
        return { server: first, confirmed: true };
    const read = await confirmMiss(first, () => ctx.api.listChecks(), list => missing(list).length === 0);
    const still = missing(read.list);
    const found = missed.filter(name => !still.includes(name));
    if (found.length > 0) {
        ctx.log.info(`The first read of the checks did not show ${found.map(name => JSON.stringify(name)).join(', ')}; the next read did (the list shifted while it was read): the plan is made from that read.`);
    }
    if (!read.agreed && still.length > 0)
        ctx.log.info(unagreedLine('check', read.reads));
    return { server: read.list, confirmed: read.agreed };
}
const syncChecks = async (ctx) => {
    const { config } = ctx;
    const file = external_node_path_namespaceObject.resolve(ctx.workspace, config.checksFile);
    const text = await readChecksFile(config.checksFile, file);
    const relative = external_node_path_namespaceObject.relative(ctx.workspace, file);
    const wanted = parseChecksFile(text, config.checksFile, {
        env: ctx.env,
        warn: (message, place) => ctx.log.warning(message, place),
        annotateAs: relative.startsWith('..') || external_node_path_namespaceObject.isAbsolute(relative) ? config.checksFile : relative,
        secret: value => ctx.addSecret(value)
    });
    if (config.prune && config.prunePrefix === undefined && wanted.length === 0) {
        throw new OperationError(`sync-checks refused: checks-file ${config.checksFile} lists no checks, and prune without prune-prefix would delete every check on the service. Nothing was sent. Give prune-prefix, or list the checks to keep.`);
    }
    const approved = config.approvedPlan === undefined
        ? undefined
        : await readApprovedPlan(config.approvedPlan, external_node_path_namespaceObject.resolve(ctx.workspace, config.approvedPlan));
    const { server, confirmed } = await serverChecks(ctx, wanted);
    for (const spec of wanted)
        warnDuplicates(ctx, findByName(server, String(spec.name), ' on the service'));
    const plan = computePlan(wanted, server, { prune: config.prune, prunePrefix: config.prunePrefix });
    const changes = plan.filter(e => e.action !== 'unchanged');
    const pausedCount = plan.filter(e => e.paused).length;
    const tally = `${countOf(plan, 'create')} to create, ${countOf(plan, 'update')} to update, ${countOf(plan, 'delete')} to delete, ${countOf(plan, 'unchanged')} unchanged${pausedCount > 0 ? ` (${pausedCount} paused in the service, not in the file: kept paused, reported as drift)` : ''}`;
    await ctx.log.group(`Plan: ${tally}`, async () => {
        for (const e of plan.map(entry => ctx.redactValue(entry))) {
            // The log has room for whole values (redacted before anything could cut them).
            const detail = e.note ?? describeChanges(e, Number.POSITIVE_INFINITY);
            ctx.log.info(`${shownAction(e).padEnd(9)} ${e.name}${e.id ? ` (${e.id})` : ''}${detail ? `: ${detail}` : ''}`);
        }
    });
    // fail-on-drift (a dry run): the drift fails the step whatever else happens, fail-on-error or not.
    const drift = drifting(plan);
    const drifted = config.dryRun && config.failOnDrift && drift.length > 0 ? driftMessage(ctx, drift) : undefined;
    /** A dry run's drift with another failure: both said, and the step fails as for drift alone. */
    const driftAnd = (problem, outputs) => {
        ctx.log.warning(problem);
        const title = 'Drift: the service differs from the checks file';
        return {
            outputs,
            summary: planSummary(ctx, title, plan, [drifted, problem]),
            gateClosed: `${drifted} Also: ${problem}`
        };
    };
    if (config.planFile !== undefined) {
        const planFile = config.planFile;
        try {
            await withKnownOutputs(planOutputs(plan, wanted.length, false), () => writePlanFile(planFile, external_node_path_namespaceObject.resolve(ctx.workspace, planFile), plan, ctx.redactValue));
        }
        catch (error) {
            if (drifted && error instanceof OperationError)
                return driftAnd(error.message, error.outputs);
            throw error;
        }
        ctx.log.info(`Plan written to ${config.planFile}.`);
    }
    const refused = refusal(ctx, plan, approved);
    if (refused !== undefined) {
        // Nothing was written: the counts (and `changed`) say so; `result` still holds the refused plan.
        for (const e of changes)
            e.outcome = 'not applied';
        const outputs = planOutputs(plan, wanted.length, true);
        if (drifted)
            return driftAnd(refused, outputs);
        throw new OperationError(refused, outputs, planSummary(ctx, 'Sync refused', plan, [refused]));
    }
    if (approved !== undefined)
        ctx.log.info(`The plan is the approved one (${config.approvedPlan}).`);
    if (config.dryRun) {
        for (const e of changes) {
            const method = e.action === 'create' ? 'POST' : e.action === 'update' ? 'PUT' : 'DELETE';
            dryRunSkips(ctx, method, e.action === 'create' ? paths.checks : paths.check(e.id), e.body);
        }
        return {
            outputs: planOutputs(plan, wanted.length, false),
            summary: planSummary(ctx, drifted ? 'Drift: the service differs from the checks file' : 'Sync plan (dry run: nothing sent)', plan, [`Plan: ${tally}.`, ...(drifted ? [drifted] : [])]),
            gateClosed: drifted
        };
    }
    let failure;
    const made = [];
    await ctx.log.group(`Apply ${changes.length} change(s)`, async () => {
        const queue = [...changes];
        const worker = async () => {
            for (let entry = queue.shift(); entry && failure === undefined; entry = queue.shift()) {
                try {
                    const created = await applyEntry(ctx, entry, server);
                    if (created)
                        made.push(created);
                    entry.outcome = 'applied';
                    ctx.log.info(`${entry.action}d ${entry.name}${entry.id ? ` (${entry.id})` : ''}`);
                }
                catch (error) {
                    entry.outcome = 'failed';
                    failure ??= { entry, error };
                }
            }
        };
        await Promise.all(Array.from({ length: Math.min(CONCURRENCY, changes.length) }, worker));
    });
    for (const e of changes)
        e.outcome ??= 'not applied';
    let conflicts = [];
    let convergeFailure;
    if (failure === undefined && made.length > 0) {
        try {
            conflicts = await ctx.log.group('Converge with concurrent runs', () => convergeMade(ctx, made, confirmed));
        }
        catch (error) {
            convergeFailure = error;
        }
    }
    const outputs = planOutputs(plan, wanted.length, true);
    if (failure !== undefined) {
        const message = halfWayMessage(changes, failure.entry, failure.error);
        throw new OperationError(message, outputs, planSummary(ctx, 'Sync stopped half-way', plan, [message]));
    }
    if (convergeFailure !== undefined) {
        const message = `sync-checks applied the plan, but looking again for checks that concurrent runs created under the same names failed: ${convergeFailure instanceof Error ? convergeFailure.message : String(convergeFailure)}. Running the step again is safe; it reports any checks of the same name that were left.`;
        throw new OperationError(message, outputs, planSummary(ctx, 'Checks in sync, not confirmed', plan, [message]));
    }
    if (conflicts.length > 0) {
        const message = `sync-checks applied the plan, but concurrent runs created checks of the same name with another URL or type: ${conflicts.join(', ')}. None was removed; the next sync fails on these names until all but one are deleted.`;
        throw new OperationError(message, outputs, planSummary(ctx, 'Checks in sync, with conflicts', plan, [message]));
    }
    return { outputs, summary: planSummary(ctx, 'Checks in sync', plan, [`Plan: ${tally}. All applied.`]) };
};

;// CONCATENATED MODULE: ./src/operations/registry.ts








const checkName = (c) => typeof c.check.name !== 'string' ? 'a check name: set check-name, or name in check' : undefined;
const nameAndUrl = (c) => checkName(c) ?? (typeof c.check.url !== 'string' ? 'a check URL: set check-url, or url in check' : undefined);
const incidentTitle = (c) => typeof c.incident.title !== 'string' ? 'an incident title: set incident-title, or title in incident' : undefined;
const incidentTarget = (c) => !c.incidentId && typeof c.incident.title !== 'string' ? 'incident-id or incident-title' : undefined;
const REGISTRY = {
    'create-check': { run: createCheck, writes: true, needs: nameAndUrl },
    'get-check': { run: getCheck, writes: false, targets: 'one' },
    'list-checks': { run: listChecks, writes: false },
    'update-check': {
        run: updateCheck,
        writes: true,
        targets: 'one',
        needs: c => Object.keys(c.check).some(k => !(k === 'name' && c.checkIds.length === 0))
            ? undefined
            : 'something to change: set check, or check-url, check-type, check-interval, alert-channels, check-status (or check-name together with check-id to rename)'
    },
    'upsert-check': { run: upsertCheck, writes: true, needs: nameAndUrl },
    'delete-check': { run: deleteCheck, writes: true, targets: 'one', byPrefix: true },
    'pause-check': {
        run: pauseCheck,
        writes: true,
        targets: 'several',
        byPrefix: true,
        post: { state: PAUSED_STATE, run: (ctx, saved) => resumePaused(ctx, recordedPauses(saved)) }
    },
    'resume-check': { run: resumeCheck, writes: true, targets: 'several', byPrefix: true },
    'check-history': { run: checkHistory, writes: false, targets: 'one' },
    'wait-for-check': {
        run: waitForCheck,
        writes: false,
        targets: 'several',
        byPrefix: true,
        commentTarget: c => [...c.checkIds, ...c.checkNames, ...(c.namePrefix === undefined ? [] : [`prefix:${c.namePrefix}`])].join(','),
        errorOutputs: { passed: false, outcome: 'error', 'failed-checks': [] }
    },
    'sync-checks': {
        run: syncChecks,
        writes: true,
        needs: c => (c.checksFile ? undefined : 'checks-file'),
        commentTarget: c => c.checksFile ?? ''
    },
    'export-checks': {
        run: exportChecks,
        writes: false,
        needs: c => (c.checksFile ? undefined : 'checks-file (the path to write the checks file to)')
    },
    'create-incident': { run: createIncident, writes: true, needs: incidentTitle },
    'open-incident': { run: openIncident, writes: true, needs: incidentTitle },
    'update-incident': { run: updateIncident, writes: true, needs: incidentTarget },
    'resolve-incident': { run: resolveIncident, writes: true, needs: incidentTarget },
    'list-incidents': { run: listIncidents, writes: false },
    'create-status-page': {
        run: createStatusPage,
        writes: true,
        needs: c => typeof c.statusPage.name !== 'string'
            ? 'a status page name: set status-page-name, or name in status-page'
            : undefined
    },
    'get-status-page': {
        run: getStatusPage,
        writes: false,
        needs: c => !c.statusPageId && typeof c.statusPage.name !== 'string' ? 'status-page-id or status-page-name' : undefined
    },
    'list-status-pages': { run: listStatusPages, writes: false }
};
/** Every operation name, in the registry's order. */
const OPERATIONS = Object.keys(REGISTRY);
function isOperationName(name) {
    return Object.hasOwn(REGISTRY, name);
}
/** The entry of an operation. */
function entryOf(name) {
    return REGISTRY[name];
}

;// CONCATENATED MODULE: ./src/inputs/table.ts
/**
 * The table of inputs: every input once, with how its runner string is
 * parsed and its default (the descriptions are in action.yml; a test holds
 * the two together), and the error a bad input raises.
 */





/** A bad input: the message always starts with the input's name. */
class InputError extends Error {
    constructor(message) {
        super(message);
        this.name = 'InputError';
    }
}
/** Turn a parser's exception into a zod issue on the current field. */
function using(parse) {
    return (value, ctx) => {
        try {
            return parse(value);
        }
        catch (error) {
            ctx.issues.push({ code: 'custom', input: value, message: error instanceof Error ? error.message : String(error) });
            return NEVER;
        }
    };
}
const table_text = optional(schemas_string());
const table_optional = (parse) => optional(pipe(schemas_string(), transform(using(parse))));
/** A spec written in YAML or JSON; one instance, so the inputs that use it are known. */
const yamlMapping = table_optional(parseMapping);
const withDefault = (parse, fallback) => pipe(schemas_default(schemas_string(), fallback), transform(using(parse)));
const table_required = (parse) => pipe(schemas_string({ error: 'is required' }), transform(using(parse)));
function parseOperation(value) {
    const name = value.trim();
    if (isOperationName(name))
        return name;
    throw new ValueError(`must be one of ${OPERATIONS.join(', ')}; got ${quote(value)}${didYouMean(name, OPERATIONS)}`);
}
/**
 * Every input, once: its name, how its string is parsed and its default.
 * (The descriptions are in action.yml; a test holds the two together.)
 */
const schema = strictObject({
    operation: table_required(parseOperation),
    'api-key': table_required(parseApiKey),
    'base-url': table_required(parseBaseUrl),
    check: yamlMapping,
    'check-id': table_text,
    'check-name': table_text,
    'check-url': table_optional(oneLine),
    'check-type': table_optional(oneLine),
    'check-interval': table_optional(v => parseWholeNumber(v, 1, 10_000_000)),
    'alert-channels': table_optional(parseList),
    'check-status': table_optional(oneLine),
    'checks-file': table_optional(oneLine),
    'auto-resume': withDefault(parseBoolean, 'false'),
    prune: withDefault(parseBoolean, 'false'),
    'prune-prefix': table_text,
    'name-prefix': table_text,
    'fail-on-drift': withDefault(parseBoolean, 'false'),
    'drift-issue': withDefault(parseBoolean, 'false'),
    'max-deletions': withDefault(v => parseWholeNumber(v, 0, 1_000_000), '10'),
    'plan-file': table_optional(oneLine),
    'approved-plan': table_optional(oneLine),
    'pr-comment': withDefault(parseBoolean, 'false'),
    'github-token': table_text,
    'expected-status': withDefault(oneLine, 'up'),
    'max-response-time': table_optional(parseMilliseconds),
    'require-fresh': withDefault(parseBoolean, 'true'),
    timeout: withDefault(parseDuration, '5m'),
    'poll-interval': withDefault(parseDuration, '10s'),
    'consecutive-passes': withDefault(v => parseWholeNumber(v, 1, 100), '1'),
    'junit-file': table_optional(oneLine),
    baseline: table_optional(parseDuration),
    'max-response-time-increase': table_optional(parseIncrease),
    slo: table_optional(parseSlo),
    'slo-window': withDefault(parseSloWindow, '30d'),
    since: table_optional(parseSince),
    incident: yamlMapping,
    'incident-id': table_optional(anId),
    'incident-title': table_optional(oneLine),
    'incident-message': table_text,
    'incident-status': table_optional(oneLine),
    'incident-key': table_optional(oneLine),
    'status-page': yamlMapping,
    'status-page-id': table_optional(anId),
    'status-page-name': table_optional(oneLine),
    'dry-run': withDefault(parseBoolean, 'false'),
    'fail-on-error': withDefault(parseBoolean, 'true'),
    'max-retries': withDefault(v => parseWholeNumber(v, 0, 10), '3'),
    'request-timeout': withDefault(parseDuration, '30s'),
    'job-summary': withDefault(parseBoolean, 'true')
});
/** Every input of action.yml, by its kebab-case name. */
const INPUTS = Object.keys(schema.shape);
/** The inputs written in YAML or JSON. */
const YAML_INPUTS = INPUTS.filter(name => schema.shape[name] === yamlMapping);
/**
 * Load what parsing these inputs needs, before parseConfig: the YAML parser
 * only when a YAML input is given, so most steps never read it.
 */
async function loadParsers(raw) {
    if (YAML_INPUTS.some(name => raw[name]?.trim()))
        await (0,modules.load)('yaml');
}
/** One input's value as the action reads it (undefined: not set), for tests that hold action.yml to the code. */
function parseInput(name, value) {
    return schema.shape[name].parse(value);
}

;// CONCATENATED MODULE: ./src/inputs/read.ts






/** Runner strings with "" meaning "not set". */
function present(raw) {
    const out = {};
    for (const [name, value] of Object.entries(raw)) {
        if (typeof value === 'string' && value.trim() !== '')
            out[name] = value;
    }
    return out;
}
/**
 * What an input that is required but empty most likely means: the variable or
 * secret it reads is unset (the runner passes that as ""), or withheld from the
 * run. (api-key's is told in step/failure.ts, where the run's event is known.)
 */
const EMPTY = {
    'base-url': '. It is empty: the variable it reads is not set in this repository, or is withheld from this run (variables are not passed to a workflow run for a pull request from a fork). Store the API root (https://api.example.com/v1) as a variable (Settings > Secrets and variables > Actions > Variables) and pass it: base-url: ${{ vars.MONITORING_BASE_URL }}'
};
/** Make the first zod issue one sentence that starts with the input's name. */
function messageOfIssues(error) {
    return error.issues
        .map(issue => {
        const name = String(issue.path[0] ?? 'inputs');
        if (issue.code === 'unrecognized_keys')
            return `unknown input(s): ${issue.keys.join(', ')}`;
        if (issue.message === 'is required' && EMPTY[name])
            return `${name} is required${EMPTY[name]}`;
        // `check is not valid YAML` reads as if a check were; a spec input is named as an input.
        return YAML_INPUTS.includes(name)
            ? `the input \`${name}\` ${issue.message}`
            : `${name} ${issue.message}`;
    })
        .join('; ');
}
/**
 * check-id and check-name: lists for the operations that target several
 * checks. For the others check-name is one whole value, commas included (a
 * name may hold them); check-id is still read as a list so that `a,b` is
 * "two ids" rather than one id that no check has.
 */
function targetsOf(operation, p) {
    const multi = entryOf(operation).targets === 'several';
    const ids = p['check-id'] === undefined ? [] : parseList(p['check-id']);
    if (!multi && ids.length > 1)
        throw new InputError(`check-id takes one id for ${operation}, got ${ids.length}`);
    let names = [];
    const name = p['check-name'];
    if (name !== undefined) {
        names = multi ? parseList(name) : [name.trim()];
        if (!multi && /[\r\n]/.test(names[0])) {
            throw new InputError(`check-name takes one name for ${operation}, got ${parseList(name).length} lines`);
        }
    }
    for (const id of ids) {
        const problem = idProblem(id);
        if (problem)
            throw new InputError(`check-id holds ${quote(id)}: ${problem}`);
    }
    // A list split on commas: a name that holds one was cut (step/failure.ts says so if a part is not found).
    const byComma = multi && names.length > 1 && name !== undefined && !/[\r\n]/.test(name) ? name.trim() : undefined;
    return { ids, names, byComma };
}
function buildCheck(p, names) {
    const spec = { ...(p.check ?? {}) };
    const problem = specProblem(CheckSpecSchema, spec);
    if (problem)
        throw new InputError(`check: ${problem}`);
    if (names.length === 1)
        spec.name = names[0];
    if (p['check-url'] !== undefined) {
        const urlProblem = specProblem(CheckSpecSchema, { url: p['check-url'] });
        if (urlProblem)
            throw new InputError(`check-${urlProblem}`);
        spec.url = p['check-url'];
    }
    if (p['check-type'] !== undefined)
        spec.type = p['check-type'];
    if (p['check-interval'] !== undefined)
        spec.interval = p['check-interval'];
    if (p['alert-channels'] !== undefined)
        spec.alertChannels = p['alert-channels'];
    if (p['check-status'] !== undefined)
        spec.status = p['check-status'];
    return spec;
}
function buildIncident(p) {
    const spec = { ...(p.incident ?? {}) };
    const problem = specProblem(IncidentSpecSchema, spec);
    if (problem)
        throw new InputError(`incident: ${problem}`);
    if (p['incident-title'] !== undefined)
        spec.title = p['incident-title'];
    if (p['incident-message'] !== undefined)
        spec.message = p['incident-message'];
    if (p['incident-status'] !== undefined)
        spec.status = p['incident-status'];
    // incident-key: part of the incident's identity (its title), so matrix legs keep one incident each.
    if (p['incident-key'] !== undefined && typeof spec.title === 'string')
        spec.title = `${spec.title} [${p['incident-key']}]`;
    return spec;
}
function buildStatusPage(p) {
    const spec = { ...(p['status-page'] ?? {}) };
    const problem = specProblem(StatusPageSpecSchema, spec);
    if (problem)
        throw new InputError(`status-page: ${problem}`);
    if (p['status-page-name'] !== undefined)
        spec.name = p['status-page-name'];
    return spec;
}
/** What the operation needs before it can send anything (its registry entry says). */
function requireForOperation(c) {
    const entry = entryOf(c.operation);
    const needs = (message) => {
        throw new InputError(`${c.operation} needs ${message}`);
    };
    const byPrefix = entry.byPrefix === true && c.namePrefix !== undefined;
    if (entry.targets && c.checkIds.length === 0 && c.checkNames.length === 0 && !byPrefix) {
        const what = entry.byPrefix ? 'check-id, check-name or name-prefix' : 'check-id or check-name';
        needs(entry.targets === 'several' ? `${what} (one or more)` : what);
    }
    const missing = entry.needs?.(c);
    if (missing)
        needs(missing);
    if (c.prunePrefix !== undefined && !c.prune) {
        throw new InputError('prune-prefix only applies with prune: true');
    }
    if (c.failOnDrift && c.operation === 'sync-checks' && !c.dryRun) {
        throw new InputError('fail-on-drift applies to a dry run (dry-run: true): a sync that applies the plan corrects the drift it finds. Set dry-run: true for a scheduled drift check, or drop fail-on-drift');
    }
    if (c.operation === 'wait-for-check') {
        baselinePair(c);
        sloPair(c);
    }
}
/**
 * slo-window is read only with slo: a window set without an objective would
 * measure nothing, in a gate the user thinks checks the budget. (The runner
 * passes the default, 30d, when it is not set: only another value is caught.)
 */
function sloPair(c) {
    if (c.sloWindowMs === 0)
        throw new InputError('slo-window must be longer than 0 (a window such as 30d or 7d)');
    if (c.slo === undefined && c.sloWindowMs !== parseInput('slo-window', undefined)) {
        throw new InputError('slo-window needs slo (an objective such as 99.9%): the window is what the objective is measured over');
    }
}
/**
 * baseline and max-response-time-increase go together: a window without a
 * limit would judge nothing (a gate the user thinks compares), a limit
 * without a window has nothing to add to.
 */
function baselinePair(c) {
    if (c.baselineMs === 0)
        throw new InputError('baseline must be longer than 0 (a window such as 1h or 24h)');
    if (c.baselineMs !== undefined && c.maxIncrease === undefined) {
        throw new InputError('baseline needs max-response-time-increase (20% or 150ms): a result passes if it is at most the baseline p95 plus it');
    }
    if (c.maxIncrease !== undefined && c.baselineMs === undefined) {
        throw new InputError("max-response-time-increase needs baseline (a window such as 24h): the check's history in it is what the increase is measured from");
    }
}
/** Parse and validate every input. Throws InputError naming the input. */
function parseConfig(raw) {
    const result = schema.safeParse(present(raw));
    if (!result.success)
        throw new InputError(messageOfIssues(result.error));
    const p = result.data;
    const targets = targetsOf(p.operation, p);
    const config = {
        operation: p.operation,
        apiKey: p['api-key'],
        baseUrl: p['base-url'],
        check: buildCheck(p, targets.names),
        checkIds: targets.ids,
        checkNames: targets.names,
        checkNamesByComma: targets.byComma,
        checksFile: p['checks-file'],
        autoResume: p['auto-resume'],
        prune: p.prune,
        prunePrefix: p['prune-prefix'],
        namePrefix: p['name-prefix'],
        failOnDrift: p['fail-on-drift'],
        driftIssue: p['drift-issue'],
        maxDeletions: p['max-deletions'],
        planFile: p['plan-file'],
        approvedPlan: p['approved-plan'],
        prComment: p['pr-comment'],
        githubToken: p['github-token']?.trim(),
        expectedStatus: p['expected-status'],
        maxResponseTimeMs: p['max-response-time'],
        requireFresh: p['require-fresh'],
        timeoutMs: p.timeout,
        pollIntervalMs: p['poll-interval'],
        consecutivePasses: p['consecutive-passes'],
        junitFile: p['junit-file'],
        baselineMs: p.baseline,
        maxIncrease: p['max-response-time-increase'],
        slo: p.slo,
        sloWindowMs: p['slo-window'],
        since: p.since,
        incident: buildIncident(p),
        incidentId: p['incident-id'],
        statusPage: buildStatusPage(p),
        statusPageId: p['status-page-id'],
        dryRun: p['dry-run'],
        failOnError: p['fail-on-error'],
        maxRetries: p['max-retries'],
        requestTimeoutMs: p['request-timeout'],
        jobSummary: p['job-summary']
    };
    if (config.requestTimeoutMs < 100)
        throw new InputError('request-timeout must be at least 100ms');
    if (config.pollIntervalMs < 100)
        throw new InputError('poll-interval must be at least 100ms');
    requireForOperation(config);
    return config;
}
/**
 * `fail-on-error` read on its own, so that even a config that does not parse
 * knows whether to fail the step. Anything but a valid `false` means true.
 */
function failOnErrorOf(raw) {
    try {
        return raw['fail-on-error'] === undefined || raw['fail-on-error'].trim() === ''
            ? true
            : parseBoolean(raw['fail-on-error']);
    }
    catch {
        return true;
    }
}
/** Read every input through a getInput-like function (the runner's `INPUT_*`). */
function readInputs(getInput) {
    const raw = {};
    for (const name of INPUTS)
        raw[name] = getInput(name);
    return raw;
}

// EXTERNAL MODULE: external "node:util"
var external_node_util_ = __nccwpck_require__(7975);
;// CONCATENATED MODULE: ./src/inputs/warnings.ts
/**
 * Warnings about inputs that are valid but likely not what was meant: an
 * input the operation does not read, set to something other than its
 * default; an expected-status the service never reports.
 */



const CHECK_WRITES = ['create-check', 'update-check', 'upsert-check'];
const INCIDENT_WRITES = ['create-incident', 'open-incident', 'update-incident', 'resolve-incident'];
const GATE = ['wait-for-check'];
const SYNC = ['sync-checks'];
/** Inputs only some operations read (the others ignore them); the rest apply to all, or to most. */
const APPLIES_TO = {
    check: CHECK_WRITES,
    'check-url': CHECK_WRITES,
    'check-type': CHECK_WRITES,
    'check-interval': CHECK_WRITES,
    'alert-channels': CHECK_WRITES,
    'check-status': CHECK_WRITES,
    'checks-file': [...SYNC, 'export-checks'],
    'name-prefix': ['export-checks', 'list-checks', 'pause-check', 'resume-check', 'wait-for-check', 'delete-check'],
    'fail-on-drift': SYNC,
    'drift-issue': SYNC,
    prune: SYNC,
    'prune-prefix': SYNC,
    'max-deletions': [...SYNC, 'delete-check'],
    'plan-file': SYNC,
    'approved-plan': SYNC,
    'auto-resume': ['pause-check'],
    'expected-status': GATE,
    'max-response-time': GATE,
    'require-fresh': GATE,
    timeout: GATE,
    'poll-interval': GATE,
    'consecutive-passes': GATE,
    'junit-file': GATE,
    baseline: GATE,
    'max-response-time-increase': GATE,
    slo: GATE,
    'slo-window': GATE,
    since: ['check-history'],
    'pr-comment': [...SYNC, ...GATE],
    incident: INCIDENT_WRITES,
    'incident-id': ['update-incident', 'resolve-incident'],
    'incident-title': INCIDENT_WRITES,
    'incident-message': INCIDENT_WRITES,
    'incident-status': ['create-incident', 'open-incident', 'update-incident'],
    'incident-key': INCIDENT_WRITES,
    'status-page': ['create-status-page'],
    'status-page-id': ['get-status-page'],
    'status-page-name': ['create-status-page', 'get-status-page']
};
/**
 * Inputs set to something other than their default that the operation does
 * not read, each as "<input> applies to <operations>, not <operation>": worth
 * a warning, since the user expected them to do something. (The runner passes
 * action.yml's default for an input that is not set, so a default is silent.)
 */
function inputsNotApplying(raw, operation) {
    const out = [];
    for (const [name, operations] of Object.entries(APPLIES_TO)) {
        const value = raw[name];
        if (value === undefined || value.trim() === '' || operations.includes(operation))
            continue;
        let isDefault;
        try {
            isDefault = (0,external_node_util_.isDeepStrictEqual)(parseInput(name, value), parseInput(name, undefined));
        }
        catch {
            isDefault = false;
        }
        if (!isDefault)
            out.push(`${name} applies to ${operations.join(', ')}, not ${operation}: it is ignored`);
    }
    return out;
}
/** The statuses the service is known to report (the document names `up`; the others are what it does). */
const KNOWN_STATUSES = ['up', 'down', 'paused', 'pending'];
/** A warning for an expected-status the service never reports (`upp`), before a gate waits for it in vain. */
function expectedStatusWarning(config) {
    if (config.operation !== 'wait-for-check' || KNOWN_STATUSES.includes(config.expectedStatus.toLowerCase())) {
        return undefined;
    }
    return `expected-status ${JSON.stringify(config.expectedStatus)} is not a status the service is known to report (${KNOWN_STATUSES.join(', ')})${didYouMean(config.expectedStatus, KNOWN_STATUSES)}: the gate waits for it anyway, and will time out unless the service reports it`;
}

;// CONCATENATED MODULE: ./src/secrets.ts
/**
 * Secrets in what the action writes: every form of a secret becomes ***.
 *
 * A secret can reach a report in more than its raw form: inside JSON text it
 * is escaped (`"`, `\`, a tab, a line break), and a service that normalises
 * URLs gives it back percent-encoded (`p@ss` as `p%40ss`), or decoded (a
 * secret written encoded, `p%40ss`, comes back as `p@ss`). Each form is
 * replaced. Text is redacted before anything shortens it, so no part of a
 * secret survives a cut; structured values (`result`, the plan file) are
 * redacted value by value and then serialised, so the JSON stays JSON.
 */
/** Shorter secrets are not masked (they would mask everywhere); the runner has the same rule. */
const MIN_SECRET_LENGTH = 4;
const hexLower = (text) => text.replace(/%[0-9A-F]{2}/g, hex => hex.toLowerCase());
/** Every form in which `secret` may appear in text the action writes. */
function formsOf(secret) {
    const json = JSON.stringify(secret).slice(1, -1);
    const component = encodeURIComponent(secret);
    const form = new URLSearchParams({ s: secret }).toString().slice(2);
    const uri = (() => {
        try {
            return encodeURI(secret);
        }
        catch {
            return secret; // a lone surrogate: it has no encoded form
        }
    })();
    // A percent-encoded secret (`p%40ss`, as a URL holds it) comes back decoded from a service that decodes.
    const decoded = [secret, secret.replace(/\+/g, ' ')].flatMap(text => {
        try {
            const plain = decodeURIComponent(text);
            return plain !== secret && plain.length >= MIN_SECRET_LENGTH ? [plain] : [];
        }
        catch {
            return [];
        }
    });
    const forms = [secret, json, component, hexLower(component), form, hexLower(form), uri, hexLower(uri), ...decoded];
    return [...new Set(forms.flatMap(f => [f, JSON.stringify(f).slice(1, -1)]))];
}
/** A form that is a number alone matches only where a number ends (3600 never masks 36000 into ***0). */
const NUMERIC = /^[-+]?\d+(\.\d+)?$/;
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
function replacer(secrets) {
    const forms = [...new Set(secrets.filter(s => s.length >= MIN_SECRET_LENGTH).flatMap(formsOf))].sort((a, b) => b.length - a.length);
    return text => {
        let out = text;
        for (const form of forms) {
            if (!out.includes(form))
                continue;
            out = NUMERIC.test(form)
                ? out.replace(new RegExp(`(?<!\\d|\\d\\.)${escapeRegExp(form)}(?!\\d|\\.\\d)`, 'g'), '***')
                : out.split(form).join('***');
        }
        return out;
    };
}
/** `text` with every form of every secret replaced by ***. Redact before shortening. */
function redact(text, secrets) {
    return secrets.length === 0 ? text : replacer(secrets)(text);
}
/**
 * A value with every secret in it replaced, field by field (keys too): a
 * string is redacted as text; a number or boolean that is a secret becomes
 * the string ***. Serialise the result: the JSON stays valid, and no other
 * number is touched.
 */
function redactValue(value, secrets) {
    if (secrets.length === 0)
        return value;
    const text = replacer(secrets);
    const walk = (v) => {
        if (typeof v === 'string')
            return text(v);
        if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') {
            return text(String(v)) === String(v) ? v : '***';
        }
        if (Array.isArray(v))
            return v.map(walk);
        if (v !== null && typeof v === 'object') {
            return Object.fromEntries(Object.entries(v).map(([k, x]) => [text(k), walk(x)]));
        }
        return v;
    };
    return walk(value);
}
/** A URL without its user name and password (a proxy URL may carry them). */
function withoutCredentials(url) {
    if (!url)
        return url;
    try {
        const parsed = new URL(url);
        if (!parsed.username && !parsed.password)
            return url;
        parsed.username = '';
        parsed.password = '';
        return parsed.href;
    }
    catch {
        return '(an unparsable proxy URL)';
    }
}

;// CONCATENATED MODULE: ./src/report/text.ts
/**
 * Text from the server or from inputs, made safe for the two places the
 * action writes it: the job log (where a line that starts with `::` is a
 * workflow command) and the job summary (Markdown with HTML).
 */
/** Every character the runner or a Markdown renderer treats as the end of a line. */
const LINE_BREAKS = /\r\n|[\r\n\u000b\u000c\u0085\u2028\u2029]/g;
const VISIBLE = {
    '\r\n': '\\r\\n',
    '\r': '\\r',
    '\n': '\\n',
    '\u000b': '\\v',
    '\u000c': '\\f',
    '\u0085': '\\u0085',
    '\u2028': '\\u2028',
    '\u2029': '\\u2029'
};
/**
 * One log line: line breaks inside become visible (`\n`, `\r`, `\u2028`...),
 * so a value can never start a new line; and a line that would start with
 * `::` (after the blanks the runner skips) is prefixed with a backslash, so it
 * is never read as a workflow command.
 */
function logLine(text) {
    const flat = text.replace(LINE_BREAKS, ch => VISIBLE[ch]);
    return /^\s*::/.test(flat) ? `\\${flat}` : flat;
}
const HTML = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
/**
 * Text for a Markdown paragraph or table cell, shown as written: HTML is
 * escaped (`<prod>` shows as `<prod>`), Markdown punctuation is backslash-
 * escaped (`|` never splits a cell), line breaks become spaces (a lone `\r`
 * never ends a row), and what would make a block at the start (a heading, a
 * list, a rule, a code block) is escaped too.
 */
function markdownText(value) {
    const text = value === undefined || value === null ? '' : String(value);
    return text
        .replace(LINE_BREAKS, ' ')
        .replace(/[&<>"]/g, ch => HTML[ch])
        .replace(/[\\`*_[\]|~]/g, ch => `\\${ch}`)
        .replace(/^\s+/, '')
        .replace(/^[#+=-]/, ch => `\\${ch}`)
        .replace(/^(\d+)([.)])/, '$1\\$2');
}
/** A zero-width space: invisible, and it breaks what GitHub would make a link of. */
const ZWSP = '\u200B';
/**
 * Text (already escaped by markdownText) that GitHub renders with nothing
 * live in it: no autolink (GFM's extension links `https://…`, `www.…` and
 * `a@b.c` in plain text), no mention (`@name` notifies), no reference
 * (`#12`, `GH-12`, a commit's hex id). A zero-width space goes where each
 * would start, or inside.
 */
function defused(escaped) {
    return escaped
        .replace(/(https?|ftp|mailto|xmpp):/gi, `$1:${ZWSP}`)
        .replace(/\bwww\./gi, m => `${m.slice(0, 3)}${ZWSP}.`)
        .replace(/([@#])(?=[\p{L}\p{N}_-])/gu, `$1${ZWSP}`)
        .replace(/\b(GH)-(?=\d)/gi, `$1-${ZWSP}`)
        .replace(/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b/gi, hex => hex.replace(/(.{6})(?=.)/g, `$1${ZWSP}`));
}
/**
 * `text` cut to at most `maxBytes` of UTF-8, at a character boundary, with
 * `…` when it was cut. Never splits a surrogate pair.
 */
function cutToBytes(text, maxBytes) {
    if (Buffer.byteLength(text) <= maxBytes)
        return text;
    const room = maxBytes - Buffer.byteLength('…');
    if (room < 0)
        return '';
    let bytes = 0;
    let end = 0;
    for (const ch of text) {
        const size = Buffer.byteLength(ch);
        if (bytes + size > room)
            break;
        bytes += size;
        end += ch.length;
    }
    return `${text.slice(0, end)}…`;
}

;// CONCATENATED MODULE: ./src/report/log.ts


const annotation = (place) => ({
    file: place.file,
    ...(place.line !== undefined ? { startLine: place.line } : {})
});
function actionLog(core, secrets) {
    const line = (message) => logLine(redact(message, secrets));
    return {
        debug: m => core.debug(line(m)),
        info: m => core.info(line(m)),
        warning: (m, place) => (place ? core.warning(line(m), annotation(place)) : core.warning(line(m))),
        notice: m => core.notice(line(m)),
        fail: (m, place) => {
            if (!place)
                return core.setFailed(line(m));
            // What core.setFailed does, with the annotation's place.
            core.error(line(m), annotation(place));
            process.exitCode = 1;
        },
        group: async (name, fn) => {
            core.startGroup(line(name));
            try {
                return await fn();
            }
            finally {
                core.endGroup();
            }
        }
    };
}

;// CONCATENATED MODULE: ./src/report/outputs.ts

/** Every output of action.yml. */
const OUTPUTS = [
    'check-id',
    'check-name',
    'check-status',
    'response-time',
    'last-checked-at',
    'incident-id',
    'incident-status',
    'status-page-id',
    'result',
    'count',
    'changed',
    'created',
    'updated',
    'deleted',
    'unchanged',
    'passed',
    'outcome',
    'failed-checks',
    'response-time-p95',
    'baseline-p95',
    'availability',
    'error-budget-remaining',
    'uptime',
    'comment-url',
    'drift',
    'issue-url',
    'error'
];
/** Largest `result` written as an output, in bytes of UTF-8; larger ones are replaced by a note. */
const MAX_RESULT_BYTES = 512 * 1024;
function outputValue(name, value) {
    if (value === undefined || value === null)
        return '';
    // `result`, `failed-checks`: JSON, bounded.
    if (typeof value === 'object') {
        const json = JSON.stringify(value);
        const bytes = Buffer.byteLength(json);
        if (bytes <= MAX_RESULT_BYTES)
            return json;
        const count = Array.isArray(value) ? ` (${value.length} items)` : '';
        return JSON.stringify({
            truncated: true,
            note: `${name}${count} is ${bytes} bytes, more than the ${MAX_RESULT_BYTES} bytes an output holds here; see the job summary or use a list operation with fewer items`
        });
    }
    return String(value);
}
function writeOutputs(setOutput, outputs, secrets) {
    for (const name of OUTPUTS) {
        if (!(name in outputs))
            continue;
        const value = outputs[name];
        // JSON is redacted value by value, then serialised: masking its text could break it (`"ttl":***`).
        setOutput(name, value !== null && typeof value === 'object'
            ? outputValue(name, redactValue(value, secrets))
            : redact(outputValue(name, value), secrets));
    }
}
/**
 * Compile-time check: every output an operation can set is in OUTPUTS (and so,
 * by __tests__/unit/action-yml.test.ts, declared in action.yml).
 */
const EVERY_OUTPUT_LISTED = true;

;// CONCATENATED MODULE: ./src/report/summary.ts


/** The runner drops a step summary over 1 MiB; stay well under it. */
const MAX_SUMMARY_BYTES = 900 * 1024;
const MAX_ROWS = 500;
/** One cell or line never takes more than this. */
const MAX_CELL_BYTES = 4 * 1024;
const MAX_LINE_BYTES = 16 * 1024;
/** Room kept for the "not shown" notes. */
const NOTE_ROOM = 1024;
/**
 * Redact, escape, defuse and cut one value: shown as written, and nothing in
 * it becomes a link, an image, a mention or a reference where GitHub renders
 * it (the job summary, a comment, an issue).
 */
function safe(value, secrets, maxBytes) {
    const text = typeof value === 'number'
        ? String(redactValue(value, secrets))
        : redact(value === undefined || value === null ? '' : String(value), secrets);
    return cutToBytes(defused(markdownText(text)), maxBytes);
}
const JOB_SUMMARY = { maxBytes: MAX_SUMMARY_BYTES, limit: 'the summary is kept under 1 MiB' };
/**
 * A pull-request comment: GitHub refuses a body over 65,536 characters (bytes
 * count at least as many), and a long plan is folded so the thread stays short.
 */
const PR_COMMENT = {
    maxBytes: 60_000,
    limit: "a comment is kept under GitHub's 65,536 characters; the job summary has them all",
    tableCut: "a comment is kept under GitHub's 65,536 characters; the job summary has more",
    foldOver: 10
};
function renderSummary(summary, operation, secrets, options = JOB_SUMMARY) {
    const parts = [];
    let bytes = 0;
    const budget = options.maxBytes - NOTE_ROOM;
    /** Add a piece if it fits; false when the budget is spent. */
    const add = (piece) => {
        const size = Buffer.byteLength(piece) + 1;
        if (bytes + size > budget)
            return false;
        parts.push(piece);
        bytes += size;
        return true;
    };
    let linesLeft = 0;
    add(`### ${safe(summary.title, secrets, MAX_LINE_BYTES)}`);
    add('');
    add(`Operation: ${safe(operation, secrets, 200)}`);
    add('');
    for (const [i, line] of summary.lines.entries()) {
        if (!add(safe(line, secrets, MAX_LINE_BYTES)) || !add('')) {
            linesLeft = summary.lines.length - i;
            break;
        }
    }
    let rowsLeft = 0;
    for (const table of summary.tables) {
        const fold = options.foldOver !== undefined && table.rows.length > options.foldOver;
        if (fold && !(add(`<details><summary>${table.rows.length} rows</summary>`) && add(''))) {
            rowsLeft += table.rows.length;
            continue;
        }
        const head = table.head.map(h => safe(h, secrets, MAX_CELL_BYTES));
        if (!add(`| ${head.join(' | ')} |`) || !add(`| ${head.map(() => '---').join(' | ')} |`)) {
            rowsLeft += table.rows.length;
            if (fold)
                parts.push('', '</details>', '');
            continue;
        }
        let shown = 0;
        for (const row of table.rows.slice(0, MAX_ROWS)) {
            if (!add(`| ${row.map(value => safe(value, secrets, MAX_CELL_BYTES)).join(' | ')} |`))
                break;
            shown++;
        }
        const notShown = table.rows.length - shown;
        if (notShown > 0)
            parts.push('', `_${notShown} more rows not shown${options.tableCut ? `: ${options.tableCut}` : ''}._`);
        parts.push('');
        if (fold)
            parts.push('</details>', '');
    }
    for (const block of summary.details ?? []) {
        const lines = block.lines.map(line => logLine(redact(line, secrets)));
        // A fence longer than any run of backticks inside: nothing in the text can close it early.
        const fence = '`'.repeat(Math.max(3, ...lines.map(l => Math.max(0, ...(l.match(/`+/g) ?? []).map(r => r.length + 1)))));
        if (!add(`<details><summary>${safe(block.title, secrets, 200)}</summary>`) || !add('') || !add(`${fence}text`))
            break;
        let shown = 0;
        for (const line of lines) {
            if (Buffer.byteLength(line) > budget - bytes - 64 || !add(line))
                break;
            shown++;
        }
        parts.push(fence, '', '</details>', '');
        if (shown < lines.length) {
            parts.push(`_${lines.length - shown} more not shown here: ${options.limit}; the result output and plan-file hold every value._`, '');
        }
    }
    if (linesLeft > 0)
        parts.push(`_${linesLeft} more lines not shown: ${options.limit}._`, '');
    if (rowsLeft > 0)
        parts.push(`_${rowsLeft} more rows not shown: ${options.limit}._`, '');
    return parts.join('\n');
}

// EXTERNAL MODULE: external "os"
var external_os_ = __nccwpck_require__(857);
;// CONCATENATED MODULE: ./node_modules/@actions/core/lib/utils.js
// We use any as a valid input type
/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Sanitizes an input into a string so it can be passed into issueCommand safely
 * @param input input to sanitize into a string
 */
function toCommandValue(input) {
    if (input === null || input === undefined) {
        return '';
    }
    else if (typeof input === 'string' || input instanceof String) {
        return input;
    }
    return JSON.stringify(input);
}
/**
 *
 * @param annotationProperties
 * @returns The command properties to send with the actual annotation command
 * See IssueCommandProperties: https://github.com/actions/runner/blob/main/src/Runner.Worker/ActionCommandManager.cs#L646
 */
function toCommandProperties(annotationProperties) {
    if (!Object.keys(annotationProperties).length) {
        return {};
    }
    return {
        title: annotationProperties.title,
        file: annotationProperties.file,
        line: annotationProperties.startLine,
        endLine: annotationProperties.endLine,
        col: annotationProperties.startColumn,
        endColumn: annotationProperties.endColumn
    };
}
//# sourceMappingURL=utils.js.map
;// CONCATENATED MODULE: ./node_modules/@actions/core/lib/command.js


/**
 * Issues a command to the GitHub Actions runner
 *
 * @param command - The command name to issue
 * @param properties - Additional properties for the command (key-value pairs)
 * @param message - The message to include with the command
 * @remarks
 * This function outputs a specially formatted string to stdout that the Actions
 * runner interprets as a command. These commands can control workflow behavior,
 * set outputs, create annotations, mask values, and more.
 *
 * Command Format:
 *   ::name key=value,key=value::message
 *
 * @example
 * ```typescript
 * // Issue a warning annotation
 * issueCommand('warning', {}, 'This is a warning message');
 * // Output: ::warning::This is a warning message
 *
 * // Set an environment variable
 * issueCommand('set-env', { name: 'MY_VAR' }, 'some value');
 * // Output: ::set-env name=MY_VAR::some value
 *
 * // Add a secret mask
 * issueCommand('add-mask', {}, 'secretValue123');
 * // Output: ::add-mask::secretValue123
 * ```
 *
 * @internal
 * This is an internal utility function that powers the public API functions
 * such as setSecret, warning, error, and exportVariable.
 */
function issueCommand(command, properties, message) {
    const cmd = new Command(command, properties, message);
    process.stdout.write(cmd.toString() + external_os_.EOL);
}
function issue(name, message = '') {
    issueCommand(name, {}, message);
}
const CMD_STRING = '::';
class Command {
    constructor(command, properties, message) {
        if (!command) {
            command = 'missing.command';
        }
        this.command = command;
        this.properties = properties;
        this.message = message;
    }
    toString() {
        let cmdStr = CMD_STRING + this.command;
        if (this.properties && Object.keys(this.properties).length > 0) {
            cmdStr += ' ';
            let first = true;
            for (const key in this.properties) {
                if (this.properties.hasOwnProperty(key)) {
                    const val = this.properties[key];
                    if (val) {
                        if (first) {
                            first = false;
                        }
                        else {
                            cmdStr += ',';
                        }
                        cmdStr += `${key}=${escapeProperty(val)}`;
                    }
                }
            }
        }
        cmdStr += `${CMD_STRING}${escapeData(this.message)}`;
        return cmdStr;
    }
}
function escapeData(s) {
    return toCommandValue(s)
        .replace(/%/g, '%25')
        .replace(/\r/g, '%0D')
        .replace(/\n/g, '%0A');
}
function escapeProperty(s) {
    return toCommandValue(s)
        .replace(/%/g, '%25')
        .replace(/\r/g, '%0D')
        .replace(/\n/g, '%0A')
        .replace(/:/g, '%3A')
        .replace(/,/g, '%2C');
}
//# sourceMappingURL=command.js.map
;// CONCATENATED MODULE: external "crypto"
const external_crypto_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("crypto");
// EXTERNAL MODULE: external "fs"
var external_fs_ = __nccwpck_require__(9896);
;// CONCATENATED MODULE: ./node_modules/@actions/core/lib/file-command.js
// For internal use, subject to change.
// We use any as a valid input type
/* eslint-disable @typescript-eslint/no-explicit-any */




function issueFileCommand(command, message) {
    const filePath = process.env[`GITHUB_${command}`];
    if (!filePath) {
        throw new Error(`Unable to find environment variable for file command ${command}`);
    }
    if (!external_fs_.existsSync(filePath)) {
        throw new Error(`Missing file at path: ${filePath}`);
    }
    external_fs_.appendFileSync(filePath, `${toCommandValue(message)}${external_os_.EOL}`, {
        encoding: 'utf8'
    });
}
function prepareKeyValueMessage(key, value) {
    const delimiter = `ghadelimiter_${external_crypto_namespaceObject.randomUUID()}`;
    const convertedValue = toCommandValue(value);
    // These should realistically never happen, but just in case someone finds a
    // way to exploit uuid generation let's not allow keys or values that contain
    // the delimiter.
    if (key.includes(delimiter)) {
        throw new Error(`Unexpected input: name should not contain the delimiter "${delimiter}"`);
    }
    if (convertedValue.includes(delimiter)) {
        throw new Error(`Unexpected input: value should not contain the delimiter "${delimiter}"`);
    }
    return `${key}<<${delimiter}${external_os_.EOL}${convertedValue}${external_os_.EOL}${delimiter}`;
}
//# sourceMappingURL=file-command.js.map
;// CONCATENATED MODULE: external "path"
const external_path_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("path");
// EXTERNAL MODULE: external "http"
var external_http_ = __nccwpck_require__(8611);
var external_http_namespaceObject = /*#__PURE__*/__nccwpck_require__.t(external_http_, 2);
// EXTERNAL MODULE: external "https"
var external_https_ = __nccwpck_require__(5692);
var external_https_namespaceObject = /*#__PURE__*/__nccwpck_require__.t(external_https_, 2);
;// CONCATENATED MODULE: ./node_modules/@actions/http-client/lib/proxy.js
function getProxyUrl(reqUrl) {
    const usingSsl = reqUrl.protocol === 'https:';
    if (checkBypass(reqUrl)) {
        return undefined;
    }
    const proxyVar = (() => {
        if (usingSsl) {
            return process.env['https_proxy'] || process.env['HTTPS_PROXY'];
        }
        else {
            return process.env['http_proxy'] || process.env['HTTP_PROXY'];
        }
    })();
    if (proxyVar) {
        try {
            return new DecodedURL(proxyVar);
        }
        catch (_a) {
            if (!proxyVar.startsWith('http://') && !proxyVar.startsWith('https://'))
                return new DecodedURL(`http://${proxyVar}`);
        }
    }
    else {
        return undefined;
    }
}
function checkBypass(reqUrl) {
    if (!reqUrl.hostname) {
        return false;
    }
    const reqHost = reqUrl.hostname;
    if (isLoopbackAddress(reqHost)) {
        return true;
    }
    const noProxy = process.env['no_proxy'] || process.env['NO_PROXY'] || '';
    if (!noProxy) {
        return false;
    }
    // Determine the request port
    let reqPort;
    if (reqUrl.port) {
        reqPort = Number(reqUrl.port);
    }
    else if (reqUrl.protocol === 'http:') {
        reqPort = 80;
    }
    else if (reqUrl.protocol === 'https:') {
        reqPort = 443;
    }
    // Format the request hostname and hostname with port
    const upperReqHosts = [reqUrl.hostname.toUpperCase()];
    if (typeof reqPort === 'number') {
        upperReqHosts.push(`${upperReqHosts[0]}:${reqPort}`);
    }
    // Compare request host against noproxy
    for (const upperNoProxyItem of noProxy
        .split(',')
        .map(x => x.trim().toUpperCase())
        .filter(x => x)) {
        if (upperNoProxyItem === '*' ||
            upperReqHosts.some(x => x === upperNoProxyItem ||
                x.endsWith(`.${upperNoProxyItem}`) ||
                (upperNoProxyItem.startsWith('.') &&
                    x.endsWith(`${upperNoProxyItem}`)))) {
            return true;
        }
    }
    return false;
}
function isLoopbackAddress(host) {
    const hostLower = host.toLowerCase();
    return (hostLower === 'localhost' ||
        hostLower.startsWith('127.') ||
        hostLower.startsWith('[::1]') ||
        hostLower.startsWith('[0:0:0:0:0:0:0:1]'));
}
class DecodedURL extends URL {
    constructor(url, base) {
        super(url, base);
        this._decodedUsername = decodeURIComponent(super.username);
        this._decodedPassword = decodeURIComponent(super.password);
    }
    get username() {
        return this._decodedUsername;
    }
    get password() {
        return this._decodedPassword;
    }
}
//# sourceMappingURL=proxy.js.map
// EXTERNAL MODULE: ./node_modules/tunnel/index.js
var tunnel = __nccwpck_require__(770);
// EXTERNAL MODULE: ./src/lazy/undici.cjs
var undici = __nccwpck_require__(5669);
;// CONCATENATED MODULE: ./node_modules/@actions/http-client/lib/index.js
/* eslint-disable @typescript-eslint/no-explicit-any */
var __awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};





var HttpCodes;
(function (HttpCodes) {
    HttpCodes[HttpCodes["OK"] = 200] = "OK";
    HttpCodes[HttpCodes["MultipleChoices"] = 300] = "MultipleChoices";
    HttpCodes[HttpCodes["MovedPermanently"] = 301] = "MovedPermanently";
    HttpCodes[HttpCodes["ResourceMoved"] = 302] = "ResourceMoved";
    HttpCodes[HttpCodes["SeeOther"] = 303] = "SeeOther";
    HttpCodes[HttpCodes["NotModified"] = 304] = "NotModified";
    HttpCodes[HttpCodes["UseProxy"] = 305] = "UseProxy";
    HttpCodes[HttpCodes["SwitchProxy"] = 306] = "SwitchProxy";
    HttpCodes[HttpCodes["TemporaryRedirect"] = 307] = "TemporaryRedirect";
    HttpCodes[HttpCodes["PermanentRedirect"] = 308] = "PermanentRedirect";
    HttpCodes[HttpCodes["BadRequest"] = 400] = "BadRequest";
    HttpCodes[HttpCodes["Unauthorized"] = 401] = "Unauthorized";
    HttpCodes[HttpCodes["PaymentRequired"] = 402] = "PaymentRequired";
    HttpCodes[HttpCodes["Forbidden"] = 403] = "Forbidden";
    HttpCodes[HttpCodes["NotFound"] = 404] = "NotFound";
    HttpCodes[HttpCodes["MethodNotAllowed"] = 405] = "MethodNotAllowed";
    HttpCodes[HttpCodes["NotAcceptable"] = 406] = "NotAcceptable";
    HttpCodes[HttpCodes["ProxyAuthenticationRequired"] = 407] = "ProxyAuthenticationRequired";
    HttpCodes[HttpCodes["RequestTimeout"] = 408] = "RequestTimeout";
    HttpCodes[HttpCodes["Conflict"] = 409] = "Conflict";
    HttpCodes[HttpCodes["Gone"] = 410] = "Gone";
    HttpCodes[HttpCodes["TooManyRequests"] = 429] = "TooManyRequests";
    HttpCodes[HttpCodes["InternalServerError"] = 500] = "InternalServerError";
    HttpCodes[HttpCodes["NotImplemented"] = 501] = "NotImplemented";
    HttpCodes[HttpCodes["BadGateway"] = 502] = "BadGateway";
    HttpCodes[HttpCodes["ServiceUnavailable"] = 503] = "ServiceUnavailable";
    HttpCodes[HttpCodes["GatewayTimeout"] = 504] = "GatewayTimeout";
})(HttpCodes || (HttpCodes = {}));
var Headers;
(function (Headers) {
    Headers["Accept"] = "accept";
    Headers["ContentType"] = "content-type";
})(Headers || (Headers = {}));
var MediaTypes;
(function (MediaTypes) {
    MediaTypes["ApplicationJson"] = "application/json";
})(MediaTypes || (MediaTypes = {}));
/**
 * Returns the proxy URL, depending upon the supplied url and proxy environment variables.
 * @param serverUrl  The server URL where the request will be sent. For example, https://api.github.com
 */
function lib_getProxyUrl(serverUrl) {
    const proxyUrl = getProxyUrl(new URL(serverUrl));
    return proxyUrl ? proxyUrl.href : '';
}
const HttpRedirectCodes = [
    HttpCodes.MovedPermanently,
    HttpCodes.ResourceMoved,
    HttpCodes.SeeOther,
    HttpCodes.TemporaryRedirect,
    HttpCodes.PermanentRedirect
];
const HttpResponseRetryCodes = [
    HttpCodes.BadGateway,
    HttpCodes.ServiceUnavailable,
    HttpCodes.GatewayTimeout
];
const RetryableHttpVerbs = ['OPTIONS', 'GET', 'DELETE', 'HEAD'];
const ExponentialBackoffCeiling = 10;
const ExponentialBackoffTimeSlice = 5;
class HttpClientError extends Error {
    constructor(message, statusCode) {
        super(message);
        this.name = 'HttpClientError';
        this.statusCode = statusCode;
        Object.setPrototypeOf(this, HttpClientError.prototype);
    }
}
class HttpClientResponse {
    constructor(message) {
        this.message = message;
    }
    readBody() {
        return __awaiter(this, void 0, void 0, function* () {
            return new Promise((resolve) => __awaiter(this, void 0, void 0, function* () {
                let output = Buffer.alloc(0);
                this.message.on('data', (chunk) => {
                    output = Buffer.concat([output, chunk]);
                });
                this.message.on('end', () => {
                    resolve(output.toString());
                });
            }));
        });
    }
    readBodyBuffer() {
        return __awaiter(this, void 0, void 0, function* () {
            return new Promise((resolve) => __awaiter(this, void 0, void 0, function* () {
                const chunks = [];
                this.message.on('data', (chunk) => {
                    chunks.push(chunk);
                });
                this.message.on('end', () => {
                    resolve(Buffer.concat(chunks));
                });
            }));
        });
    }
}
function isHttps(requestUrl) {
    const parsedUrl = new URL(requestUrl);
    return parsedUrl.protocol === 'https:';
}
class HttpClient {
    constructor(userAgent, handlers, requestOptions) {
        this._ignoreSslError = false;
        this._allowRedirects = true;
        this._allowRedirectDowngrade = false;
        this._maxRedirects = 50;
        this._allowRetries = false;
        this._maxRetries = 1;
        this._keepAlive = false;
        this._disposed = false;
        this.userAgent = this._getUserAgentWithOrchestrationId(userAgent);
        this.handlers = handlers || [];
        this.requestOptions = requestOptions;
        if (requestOptions) {
            if (requestOptions.ignoreSslError != null) {
                this._ignoreSslError = requestOptions.ignoreSslError;
            }
            this._socketTimeout = requestOptions.socketTimeout;
            if (requestOptions.allowRedirects != null) {
                this._allowRedirects = requestOptions.allowRedirects;
            }
            if (requestOptions.allowRedirectDowngrade != null) {
                this._allowRedirectDowngrade = requestOptions.allowRedirectDowngrade;
            }
            if (requestOptions.maxRedirects != null) {
                this._maxRedirects = Math.max(requestOptions.maxRedirects, 0);
            }
            if (requestOptions.keepAlive != null) {
                this._keepAlive = requestOptions.keepAlive;
            }
            if (requestOptions.allowRetries != null) {
                this._allowRetries = requestOptions.allowRetries;
            }
            if (requestOptions.maxRetries != null) {
                this._maxRetries = requestOptions.maxRetries;
            }
        }
    }
    options(requestUrl, additionalHeaders) {
        return __awaiter(this, void 0, void 0, function* () {
            return this.request('OPTIONS', requestUrl, null, additionalHeaders || {});
        });
    }
    get(requestUrl, additionalHeaders) {
        return __awaiter(this, void 0, void 0, function* () {
            return this.request('GET', requestUrl, null, additionalHeaders || {});
        });
    }
    del(requestUrl, additionalHeaders) {
        return __awaiter(this, void 0, void 0, function* () {
            return this.request('DELETE', requestUrl, null, additionalHeaders || {});
        });
    }
    post(requestUrl, data, additionalHeaders) {
        return __awaiter(this, void 0, void 0, function* () {
            return this.request('POST', requestUrl, data, additionalHeaders || {});
        });
    }
    patch(requestUrl, data, additionalHeaders) {
        return __awaiter(this, void 0, void 0, function* () {
            return this.request('PATCH', requestUrl, data, additionalHeaders || {});
        });
    }
    put(requestUrl, data, additionalHeaders) {
        return __awaiter(this, void 0, void 0, function* () {
            return this.request('PUT', requestUrl, data, additionalHeaders || {});
        });
    }
    head(requestUrl, additionalHeaders) {
        return __awaiter(this, void 0, void 0, function* () {
            return this.request('HEAD', requestUrl, null, additionalHeaders || {});
        });
    }
    sendStream(verb, requestUrl, stream, additionalHeaders) {
        return __awaiter(this, void 0, void 0, function* () {
            return this.request(verb, requestUrl, stream, additionalHeaders);
        });
    }
    /**
     * Gets a typed object from an endpoint
     * Be aware that not found returns a null.  Other errors (4xx, 5xx) reject the promise
     */
    getJson(requestUrl_1) {
        return __awaiter(this, arguments, void 0, function* (requestUrl, additionalHeaders = {}) {
            additionalHeaders[Headers.Accept] = this._getExistingOrDefaultHeader(additionalHeaders, Headers.Accept, MediaTypes.ApplicationJson);
            const res = yield this.get(requestUrl, additionalHeaders);
            return this._processResponse(res, this.requestOptions);
        });
    }
    postJson(requestUrl_1, obj_1) {
        return __awaiter(this, arguments, void 0, function* (requestUrl, obj, additionalHeaders = {}) {
            const data = JSON.stringify(obj, null, 2);
            additionalHeaders[Headers.Accept] = this._getExistingOrDefaultHeader(additionalHeaders, Headers.Accept, MediaTypes.ApplicationJson);
            additionalHeaders[Headers.ContentType] =
                this._getExistingOrDefaultContentTypeHeader(additionalHeaders, MediaTypes.ApplicationJson);
            const res = yield this.post(requestUrl, data, additionalHeaders);
            return this._processResponse(res, this.requestOptions);
        });
    }
    putJson(requestUrl_1, obj_1) {
        return __awaiter(this, arguments, void 0, function* (requestUrl, obj, additionalHeaders = {}) {
            const data = JSON.stringify(obj, null, 2);
            additionalHeaders[Headers.Accept] = this._getExistingOrDefaultHeader(additionalHeaders, Headers.Accept, MediaTypes.ApplicationJson);
            additionalHeaders[Headers.ContentType] =
                this._getExistingOrDefaultContentTypeHeader(additionalHeaders, MediaTypes.ApplicationJson);
            const res = yield this.put(requestUrl, data, additionalHeaders);
            return this._processResponse(res, this.requestOptions);
        });
    }
    patchJson(requestUrl_1, obj_1) {
        return __awaiter(this, arguments, void 0, function* (requestUrl, obj, additionalHeaders = {}) {
            const data = JSON.stringify(obj, null, 2);
            additionalHeaders[Headers.Accept] = this._getExistingOrDefaultHeader(additionalHeaders, Headers.Accept, MediaTypes.ApplicationJson);
            additionalHeaders[Headers.ContentType] =
                this._getExistingOrDefaultContentTypeHeader(additionalHeaders, MediaTypes.ApplicationJson);
            const res = yield this.patch(requestUrl, data, additionalHeaders);
            return this._processResponse(res, this.requestOptions);
        });
    }
    /**
     * Makes a raw http request.
     * All other methods such as get, post, patch, and request ultimately call this.
     * Prefer get, del, post and patch
     */
    request(verb, requestUrl, data, headers) {
        return __awaiter(this, void 0, void 0, function* () {
            if (this._disposed) {
                throw new Error('Client has already been disposed.');
            }
            const parsedUrl = new URL(requestUrl);
            let info = this._prepareRequest(verb, parsedUrl, headers);
            // Only perform retries on reads since writes may not be idempotent.
            const maxTries = this._allowRetries && RetryableHttpVerbs.includes(verb)
                ? this._maxRetries + 1
                : 1;
            let numTries = 0;
            let response;
            do {
                response = yield this.requestRaw(info, data);
                // Check if it's an authentication challenge
                if (response &&
                    response.message &&
                    response.message.statusCode === HttpCodes.Unauthorized) {
                    let authenticationHandler;
                    for (const handler of this.handlers) {
                        if (handler.canHandleAuthentication(response)) {
                            authenticationHandler = handler;
                            break;
                        }
                    }
                    if (authenticationHandler) {
                        return authenticationHandler.handleAuthentication(this, info, data);
                    }
                    else {
                        // We have received an unauthorized response but have no handlers to handle it.
                        // Let the response return to the caller.
                        return response;
                    }
                }
                let redirectsRemaining = this._maxRedirects;
                while (response.message.statusCode &&
                    HttpRedirectCodes.includes(response.message.statusCode) &&
                    this._allowRedirects &&
                    redirectsRemaining > 0) {
                    const redirectUrl = response.message.headers['location'];
                    if (!redirectUrl) {
                        // if there's no location to redirect to, we won't
                        break;
                    }
                    const parsedRedirectUrl = new URL(redirectUrl);
                    if (parsedUrl.protocol === 'https:' &&
                        parsedUrl.protocol !== parsedRedirectUrl.protocol &&
                        !this._allowRedirectDowngrade) {
                        throw new Error('Redirect from HTTPS to HTTP protocol. This downgrade is not allowed for security reasons. If you want to allow this behavior, set the allowRedirectDowngrade option to true.');
                    }
                    // we need to finish reading the response before reassigning response
                    // which will leak the open socket.
                    yield response.readBody();
                    // strip authorization header if redirected to a different hostname
                    if (parsedRedirectUrl.hostname !== parsedUrl.hostname) {
                        for (const header in headers) {
                            // header names are case insensitive
                            if (header.toLowerCase() === 'authorization') {
                                delete headers[header];
                            }
                        }
                    }
                    // let's make the request with the new redirectUrl
                    info = this._prepareRequest(verb, parsedRedirectUrl, headers);
                    response = yield this.requestRaw(info, data);
                    redirectsRemaining--;
                }
                if (!response.message.statusCode ||
                    !HttpResponseRetryCodes.includes(response.message.statusCode)) {
                    // If not a retry code, return immediately instead of retrying
                    return response;
                }
                numTries += 1;
                if (numTries < maxTries) {
                    yield response.readBody();
                    yield this._performExponentialBackoff(numTries);
                }
            } while (numTries < maxTries);
            return response;
        });
    }
    /**
     * Needs to be called if keepAlive is set to true in request options.
     */
    dispose() {
        if (this._agent) {
            this._agent.destroy();
        }
        this._disposed = true;
    }
    /**
     * Raw request.
     * @param info
     * @param data
     */
    requestRaw(info, data) {
        return __awaiter(this, void 0, void 0, function* () {
            return new Promise((resolve, reject) => {
                function callbackForResult(err, res) {
                    if (err) {
                        reject(err);
                    }
                    else if (!res) {
                        // If `err` is not passed, then `res` must be passed.
                        reject(new Error('Unknown error'));
                    }
                    else {
                        resolve(res);
                    }
                }
                this.requestRawWithCallback(info, data, callbackForResult);
            });
        });
    }
    /**
     * Raw request with callback.
     * @param info
     * @param data
     * @param onResult
     */
    requestRawWithCallback(info, data, onResult) {
        if (typeof data === 'string') {
            if (!info.options.headers) {
                info.options.headers = {};
            }
            info.options.headers['Content-Length'] = Buffer.byteLength(data, 'utf8');
        }
        let callbackCalled = false;
        function handleResult(err, res) {
            if (!callbackCalled) {
                callbackCalled = true;
                onResult(err, res);
            }
        }
        const req = info.httpModule.request(info.options, (msg) => {
            const res = new HttpClientResponse(msg);
            handleResult(undefined, res);
        });
        let socket;
        req.on('socket', sock => {
            socket = sock;
        });
        // If we ever get disconnected, we want the socket to timeout eventually
        req.setTimeout(this._socketTimeout || 3 * 60000, () => {
            if (socket) {
                socket.end();
            }
            handleResult(new Error(`Request timeout: ${info.options.path}`));
        });
        req.on('error', function (err) {
            // err has statusCode property
            // res should have headers
            handleResult(err);
        });
        if (data && typeof data === 'string') {
            req.write(data, 'utf8');
        }
        if (data && typeof data !== 'string') {
            data.on('close', function () {
                req.end();
            });
            data.pipe(req);
        }
        else {
            req.end();
        }
    }
    /**
     * Gets an http agent. This function is useful when you need an http agent that handles
     * routing through a proxy server - depending upon the url and proxy environment variables.
     * @param serverUrl  The server URL where the request will be sent. For example, https://api.github.com
     */
    getAgent(serverUrl) {
        const parsedUrl = new URL(serverUrl);
        return this._getAgent(parsedUrl);
    }
    getAgentDispatcher(serverUrl) {
        const parsedUrl = new URL(serverUrl);
        const proxyUrl = getProxyUrl(parsedUrl);
        const useProxy = proxyUrl && proxyUrl.hostname;
        if (!useProxy) {
            return;
        }
        return this._getProxyAgentDispatcher(parsedUrl, proxyUrl);
    }
    _prepareRequest(method, requestUrl, headers) {
        const info = {};
        info.parsedUrl = requestUrl;
        const usingSsl = info.parsedUrl.protocol === 'https:';
        info.httpModule = usingSsl ? external_https_namespaceObject : external_http_namespaceObject;
        const defaultPort = usingSsl ? 443 : 80;
        info.options = {};
        info.options.host = info.parsedUrl.hostname;
        info.options.port = info.parsedUrl.port
            ? parseInt(info.parsedUrl.port)
            : defaultPort;
        info.options.path =
            (info.parsedUrl.pathname || '') + (info.parsedUrl.search || '');
        info.options.method = method;
        info.options.headers = this._mergeHeaders(headers);
        if (this.userAgent != null) {
            info.options.headers['user-agent'] = this.userAgent;
        }
        info.options.agent = this._getAgent(info.parsedUrl);
        // gives handlers an opportunity to participate
        if (this.handlers) {
            for (const handler of this.handlers) {
                handler.prepareRequest(info.options);
            }
        }
        return info;
    }
    _mergeHeaders(headers) {
        if (this.requestOptions && this.requestOptions.headers) {
            return Object.assign({}, lowercaseKeys(this.requestOptions.headers), lowercaseKeys(headers || {}));
        }
        return lowercaseKeys(headers || {});
    }
    /**
     * Gets an existing header value or returns a default.
     * Handles converting number header values to strings since HTTP headers must be strings.
     * Note: This returns string | string[] since some headers can have multiple values.
     * For headers that must always be a single string (like Content-Type), use the
     * specialized _getExistingOrDefaultContentTypeHeader method instead.
     */
    _getExistingOrDefaultHeader(additionalHeaders, header, _default) {
        let clientHeader;
        if (this.requestOptions && this.requestOptions.headers) {
            const headerValue = lowercaseKeys(this.requestOptions.headers)[header];
            if (headerValue) {
                clientHeader =
                    typeof headerValue === 'number' ? headerValue.toString() : headerValue;
            }
        }
        const additionalValue = additionalHeaders[header];
        if (additionalValue !== undefined) {
            return typeof additionalValue === 'number'
                ? additionalValue.toString()
                : additionalValue;
        }
        if (clientHeader !== undefined) {
            return clientHeader;
        }
        return _default;
    }
    /**
     * Specialized version of _getExistingOrDefaultHeader for Content-Type header.
     * Always returns a single string (not an array) since Content-Type should be a single value.
     * Converts arrays to comma-separated strings and numbers to strings to ensure type safety.
     * This was split from _getExistingOrDefaultHeader to provide stricter typing for callers
     * that assign the result to places expecting a string (e.g., additionalHeaders[Headers.ContentType]).
     */
    _getExistingOrDefaultContentTypeHeader(additionalHeaders, _default) {
        let clientHeader;
        if (this.requestOptions && this.requestOptions.headers) {
            const headerValue = lowercaseKeys(this.requestOptions.headers)[Headers.ContentType];
            if (headerValue) {
                if (typeof headerValue === 'number') {
                    clientHeader = String(headerValue);
                }
                else if (Array.isArray(headerValue)) {
                    clientHeader = headerValue.join(', ');
                }
                else {
                    clientHeader = headerValue;
                }
            }
        }
        const additionalValue = additionalHeaders[Headers.ContentType];
        // Return the first non-undefined value, converting numbers or arrays to strings if necessary
        if (additionalValue !== undefined) {
            if (typeof additionalValue === 'number') {
                return String(additionalValue);
            }
            else if (Array.isArray(additionalValue)) {
                return additionalValue.join(', ');
            }
            else {
                return additionalValue;
            }
        }
        if (clientHeader !== undefined) {
            return clientHeader;
        }
        return _default;
    }
    _getAgent(parsedUrl) {
        let agent;
        const proxyUrl = getProxyUrl(parsedUrl);
        const useProxy = proxyUrl && proxyUrl.hostname;
        if (this._keepAlive && useProxy) {
            agent = this._proxyAgent;
        }
        if (!useProxy) {
            agent = this._agent;
        }
        // if agent is already assigned use that agent.
        if (agent) {
            return agent;
        }
        const usingSsl = parsedUrl.protocol === 'https:';
        let maxSockets = 100;
        if (this.requestOptions) {
            maxSockets = this.requestOptions.maxSockets || external_http_.globalAgent.maxSockets;
        }
        // This is `useProxy` again, but we need to check `proxyURl` directly for TypeScripts's flow analysis.
        if (proxyUrl && proxyUrl.hostname) {
            const agentOptions = {
                maxSockets,
                keepAlive: this._keepAlive,
                proxy: Object.assign(Object.assign({}, ((proxyUrl.username || proxyUrl.password) && {
                    proxyAuth: `${proxyUrl.username}:${proxyUrl.password}`
                })), { host: proxyUrl.hostname, port: proxyUrl.port })
            };
            let tunnelAgent;
            const overHttps = proxyUrl.protocol === 'https:';
            if (usingSsl) {
                tunnelAgent = overHttps ? tunnel.httpsOverHttps : tunnel.httpsOverHttp;
            }
            else {
                tunnelAgent = overHttps ? tunnel.httpOverHttps : tunnel.httpOverHttp;
            }
            agent = tunnelAgent(agentOptions);
            this._proxyAgent = agent;
        }
        // if tunneling agent isn't assigned create a new agent
        if (!agent) {
            const options = { keepAlive: this._keepAlive, maxSockets };
            agent = usingSsl ? new external_https_.Agent(options) : new external_http_.Agent(options);
            this._agent = agent;
        }
        if (usingSsl && this._ignoreSslError) {
            // we don't want to set NODE_TLS_REJECT_UNAUTHORIZED=0 since that will affect request for entire process
            // http.RequestOptions doesn't expose a way to modify RequestOptions.agent.options
            // we have to cast it to any and change it directly
            agent.options = Object.assign(agent.options || {}, {
                rejectUnauthorized: false
            });
        }
        return agent;
    }
    _getProxyAgentDispatcher(parsedUrl, proxyUrl) {
        let proxyAgent;
        if (this._keepAlive) {
            proxyAgent = this._proxyAgentDispatcher;
        }
        // if agent is already assigned use that agent.
        if (proxyAgent) {
            return proxyAgent;
        }
        const usingSsl = parsedUrl.protocol === 'https:';
        proxyAgent = new undici.ProxyAgent(Object.assign({ uri: proxyUrl.href, pipelining: !this._keepAlive ? 0 : 1 }, ((proxyUrl.username || proxyUrl.password) && {
            token: `Basic ${Buffer.from(`${proxyUrl.username}:${proxyUrl.password}`).toString('base64')}`
        })));
        this._proxyAgentDispatcher = proxyAgent;
        if (usingSsl && this._ignoreSslError) {
            // we don't want to set NODE_TLS_REJECT_UNAUTHORIZED=0 since that will affect request for entire process
            // http.RequestOptions doesn't expose a way to modify RequestOptions.agent.options
            // we have to cast it to any and change it directly
            proxyAgent.options = Object.assign(proxyAgent.options.requestTls || {}, {
                rejectUnauthorized: false
            });
        }
        return proxyAgent;
    }
    _getUserAgentWithOrchestrationId(userAgent) {
        const baseUserAgent = userAgent || 'actions/http-client';
        const orchId = process.env['ACTIONS_ORCHESTRATION_ID'];
        if (orchId) {
            // Sanitize the orchestration ID to ensure it contains only valid characters
            // Valid characters: 0-9, a-z, _, -, .
            const sanitizedId = orchId.replace(/[^a-z0-9_.-]/gi, '_');
            return `${baseUserAgent} actions_orchestration_id/${sanitizedId}`;
        }
        return baseUserAgent;
    }
    _performExponentialBackoff(retryNumber) {
        return __awaiter(this, void 0, void 0, function* () {
            retryNumber = Math.min(ExponentialBackoffCeiling, retryNumber);
            const ms = ExponentialBackoffTimeSlice * Math.pow(2, retryNumber);
            return new Promise(resolve => setTimeout(() => resolve(), ms));
        });
    }
    _processResponse(res, options) {
        return __awaiter(this, void 0, void 0, function* () {
            return new Promise((resolve, reject) => __awaiter(this, void 0, void 0, function* () {
                const statusCode = res.message.statusCode || 0;
                const response = {
                    statusCode,
                    result: null,
                    headers: {}
                };
                // not found leads to null obj returned
                if (statusCode === HttpCodes.NotFound) {
                    resolve(response);
                }
                // get the result from the body
                function dateTimeDeserializer(key, value) {
                    if (typeof value === 'string') {
                        const a = new Date(value);
                        if (!isNaN(a.valueOf())) {
                            return a;
                        }
                    }
                    return value;
                }
                let obj;
                let contents;
                try {
                    contents = yield res.readBody();
                    if (contents && contents.length > 0) {
                        if (options && options.deserializeDates) {
                            obj = JSON.parse(contents, dateTimeDeserializer);
                        }
                        else {
                            obj = JSON.parse(contents);
                        }
                        response.result = obj;
                    }
                    response.headers = res.message.headers;
                }
                catch (err) {
                    // Invalid resource (contents not json);  leaving result obj null
                }
                // note that 3xx redirects are handled by the http layer.
                if (statusCode > 299) {
                    let msg;
                    // if exception/error in body, attempt to get better error
                    if (obj && obj.message) {
                        msg = obj.message;
                    }
                    else if (contents && contents.length > 0) {
                        // it may be the case that the exception is in the body message as string
                        msg = contents;
                    }
                    else {
                        msg = `Failed request: (${statusCode})`;
                    }
                    const err = new HttpClientError(msg, statusCode);
                    err.result = response.result;
                    reject(err);
                }
                else {
                    resolve(response);
                }
            }));
        });
    }
}
const lowercaseKeys = (obj) => Object.keys(obj).reduce((c, k) => ((c[k.toLowerCase()] = obj[k]), c), {});
//# sourceMappingURL=index.js.map
;// CONCATENATED MODULE: ./node_modules/@actions/http-client/lib/auth.js
var auth_awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};
class BasicCredentialHandler {
    constructor(username, password) {
        this.username = username;
        this.password = password;
    }
    prepareRequest(options) {
        if (!options.headers) {
            throw Error('The request has no headers');
        }
        options.headers['Authorization'] = `Basic ${Buffer.from(`${this.username}:${this.password}`).toString('base64')}`;
    }
    // This handler cannot handle 401
    canHandleAuthentication() {
        return false;
    }
    handleAuthentication() {
        return auth_awaiter(this, void 0, void 0, function* () {
            throw new Error('not implemented');
        });
    }
}
class BearerCredentialHandler {
    constructor(token) {
        this.token = token;
    }
    // currently implements pre-authorization
    // TODO: support preAuth = false where it hooks on 401
    prepareRequest(options) {
        if (!options.headers) {
            throw Error('The request has no headers');
        }
        options.headers['Authorization'] = `Bearer ${this.token}`;
    }
    // This handler cannot handle 401
    canHandleAuthentication() {
        return false;
    }
    handleAuthentication() {
        return auth_awaiter(this, void 0, void 0, function* () {
            throw new Error('not implemented');
        });
    }
}
class PersonalAccessTokenCredentialHandler {
    constructor(token) {
        this.token = token;
    }
    // currently implements pre-authorization
    // TODO: support preAuth = false where it hooks on 401
    prepareRequest(options) {
        if (!options.headers) {
            throw Error('The request has no headers');
        }
        options.headers['Authorization'] = `Basic ${Buffer.from(`PAT:${this.token}`).toString('base64')}`;
    }
    // This handler cannot handle 401
    canHandleAuthentication() {
        return false;
    }
    handleAuthentication() {
        return auth_awaiter(this, void 0, void 0, function* () {
            throw new Error('not implemented');
        });
    }
}
//# sourceMappingURL=auth.js.map
;// CONCATENATED MODULE: ./node_modules/@actions/core/lib/oidc-utils.js
var oidc_utils_awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};



class OidcClient {
    static createHttpClient(allowRetry = true, maxRetry = 10) {
        const requestOptions = {
            allowRetries: allowRetry,
            maxRetries: maxRetry
        };
        return new HttpClient('actions/oidc-client', [new BearerCredentialHandler(OidcClient.getRequestToken())], requestOptions);
    }
    static getRequestToken() {
        const token = process.env['ACTIONS_ID_TOKEN_REQUEST_TOKEN'];
        if (!token) {
            throw new Error('Unable to get ACTIONS_ID_TOKEN_REQUEST_TOKEN env variable');
        }
        return token;
    }
    static getIDTokenUrl() {
        const runtimeUrl = process.env['ACTIONS_ID_TOKEN_REQUEST_URL'];
        if (!runtimeUrl) {
            throw new Error('Unable to get ACTIONS_ID_TOKEN_REQUEST_URL env variable');
        }
        return runtimeUrl;
    }
    static getCall(id_token_url) {
        return oidc_utils_awaiter(this, void 0, void 0, function* () {
            var _a;
            const httpclient = OidcClient.createHttpClient();
            const res = yield httpclient
                .getJson(id_token_url)
                .catch(error => {
                throw new Error(`Failed to get ID Token. \n 
        Error Code : ${error.statusCode}\n 
        Error Message: ${error.message}`);
            });
            const id_token = (_a = res.result) === null || _a === void 0 ? void 0 : _a.value;
            if (!id_token) {
                throw new Error('Response json body do not have ID Token field');
            }
            return id_token;
        });
    }
    static getIDToken(audience) {
        return oidc_utils_awaiter(this, void 0, void 0, function* () {
            try {
                // New ID Token is requested from action service
                let id_token_url = OidcClient.getIDTokenUrl();
                if (audience) {
                    const encodedAudience = encodeURIComponent(audience);
                    id_token_url = `${id_token_url}&audience=${encodedAudience}`;
                }
                debug(`ID token url is ${id_token_url}`);
                const id_token = yield OidcClient.getCall(id_token_url);
                setSecret(id_token);
                return id_token;
            }
            catch (error) {
                throw new Error(`Error message: ${error.message}`);
            }
        });
    }
}
//# sourceMappingURL=oidc-utils.js.map
;// CONCATENATED MODULE: ./node_modules/@actions/core/lib/summary.js
var summary_awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};


const { access, appendFile, writeFile } = external_fs_.promises;
const SUMMARY_ENV_VAR = 'GITHUB_STEP_SUMMARY';
const SUMMARY_DOCS_URL = 'https://docs.github.com/actions/using-workflows/workflow-commands-for-github-actions#adding-a-job-summary';
class Summary {
    constructor() {
        this._buffer = '';
    }
    /**
     * Finds the summary file path from the environment, rejects if env var is not found or file does not exist
     * Also checks r/w permissions.
     *
     * @returns step summary file path
     */
    filePath() {
        return summary_awaiter(this, void 0, void 0, function* () {
            if (this._filePath) {
                return this._filePath;
            }
            const pathFromEnv = process.env[SUMMARY_ENV_VAR];
            if (!pathFromEnv) {
                throw new Error(`Unable to find environment variable for $${SUMMARY_ENV_VAR}. Check if your runtime environment supports job summaries.`);
            }
            try {
                yield access(pathFromEnv, external_fs_.constants.R_OK | external_fs_.constants.W_OK);
            }
            catch (_a) {
                throw new Error(`Unable to access summary file: '${pathFromEnv}'. Check if the file has correct read/write permissions.`);
            }
            this._filePath = pathFromEnv;
            return this._filePath;
        });
    }
    /**
     * Wraps content in an HTML tag, adding any HTML attributes
     *
     * @param {string} tag HTML tag to wrap
     * @param {string | null} content content within the tag
     * @param {[attribute: string]: string} attrs key-value list of HTML attributes to add
     *
     * @returns {string} content wrapped in HTML element
     */
    wrap(tag, content, attrs = {}) {
        const htmlAttrs = Object.entries(attrs)
            .map(([key, value]) => ` ${key}="${value}"`)
            .join('');
        if (!content) {
            return `<${tag}${htmlAttrs}>`;
        }
        return `<${tag}${htmlAttrs}>${content}</${tag}>`;
    }
    /**
     * Writes text in the buffer to the summary buffer file and empties buffer. Will append by default.
     *
     * @param {SummaryWriteOptions} [options] (optional) options for write operation
     *
     * @returns {Promise<Summary>} summary instance
     */
    write(options) {
        return summary_awaiter(this, void 0, void 0, function* () {
            const overwrite = !!(options === null || options === void 0 ? void 0 : options.overwrite);
            const filePath = yield this.filePath();
            const writeFunc = overwrite ? writeFile : appendFile;
            yield writeFunc(filePath, this._buffer, { encoding: 'utf8' });
            return this.emptyBuffer();
        });
    }
    /**
     * Clears the summary buffer and wipes the summary file
     *
     * @returns {Summary} summary instance
     */
    clear() {
        return summary_awaiter(this, void 0, void 0, function* () {
            return this.emptyBuffer().write({ overwrite: true });
        });
    }
    /**
     * Returns the current summary buffer as a string
     *
     * @returns {string} string of summary buffer
     */
    stringify() {
        return this._buffer;
    }
    /**
     * If the summary buffer is empty
     *
     * @returns {boolen} true if the buffer is empty
     */
    isEmptyBuffer() {
        return this._buffer.length === 0;
    }
    /**
     * Resets the summary buffer without writing to summary file
     *
     * @returns {Summary} summary instance
     */
    emptyBuffer() {
        this._buffer = '';
        return this;
    }
    /**
     * Adds raw text to the summary buffer
     *
     * @param {string} text content to add
     * @param {boolean} [addEOL=false] (optional) append an EOL to the raw text (default: false)
     *
     * @returns {Summary} summary instance
     */
    addRaw(text, addEOL = false) {
        this._buffer += text;
        return addEOL ? this.addEOL() : this;
    }
    /**
     * Adds the operating system-specific end-of-line marker to the buffer
     *
     * @returns {Summary} summary instance
     */
    addEOL() {
        return this.addRaw(external_os_.EOL);
    }
    /**
     * Adds an HTML codeblock to the summary buffer
     *
     * @param {string} code content to render within fenced code block
     * @param {string} lang (optional) language to syntax highlight code
     *
     * @returns {Summary} summary instance
     */
    addCodeBlock(code, lang) {
        const attrs = Object.assign({}, (lang && { lang }));
        const element = this.wrap('pre', this.wrap('code', code), attrs);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML list to the summary buffer
     *
     * @param {string[]} items list of items to render
     * @param {boolean} [ordered=false] (optional) if the rendered list should be ordered or not (default: false)
     *
     * @returns {Summary} summary instance
     */
    addList(items, ordered = false) {
        const tag = ordered ? 'ol' : 'ul';
        const listItems = items.map(item => this.wrap('li', item)).join('');
        const element = this.wrap(tag, listItems);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML table to the summary buffer
     *
     * @param {SummaryTableCell[]} rows table rows
     *
     * @returns {Summary} summary instance
     */
    addTable(rows) {
        const tableBody = rows
            .map(row => {
            const cells = row
                .map(cell => {
                if (typeof cell === 'string') {
                    return this.wrap('td', cell);
                }
                const { header, data, colspan, rowspan } = cell;
                const tag = header ? 'th' : 'td';
                const attrs = Object.assign(Object.assign({}, (colspan && { colspan })), (rowspan && { rowspan }));
                return this.wrap(tag, data, attrs);
            })
                .join('');
            return this.wrap('tr', cells);
        })
            .join('');
        const element = this.wrap('table', tableBody);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds a collapsable HTML details element to the summary buffer
     *
     * @param {string} label text for the closed state
     * @param {string} content collapsable content
     *
     * @returns {Summary} summary instance
     */
    addDetails(label, content) {
        const element = this.wrap('details', this.wrap('summary', label) + content);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML image tag to the summary buffer
     *
     * @param {string} src path to the image you to embed
     * @param {string} alt text description of the image
     * @param {SummaryImageOptions} options (optional) addition image attributes
     *
     * @returns {Summary} summary instance
     */
    addImage(src, alt, options) {
        const { width, height } = options || {};
        const attrs = Object.assign(Object.assign({}, (width && { width })), (height && { height }));
        const element = this.wrap('img', null, Object.assign({ src, alt }, attrs));
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML section heading element
     *
     * @param {string} text heading text
     * @param {number | string} [level=1] (optional) the heading level, default: 1
     *
     * @returns {Summary} summary instance
     */
    addHeading(text, level) {
        const tag = `h${level}`;
        const allowedTag = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].includes(tag)
            ? tag
            : 'h1';
        const element = this.wrap(allowedTag, text);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML thematic break (<hr>) to the summary buffer
     *
     * @returns {Summary} summary instance
     */
    addSeparator() {
        const element = this.wrap('hr', null);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML line break (<br>) to the summary buffer
     *
     * @returns {Summary} summary instance
     */
    addBreak() {
        const element = this.wrap('br', null);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML blockquote to the summary buffer
     *
     * @param {string} text quote text
     * @param {string} cite (optional) citation url
     *
     * @returns {Summary} summary instance
     */
    addQuote(text, cite) {
        const attrs = Object.assign({}, (cite && { cite }));
        const element = this.wrap('blockquote', text, attrs);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML anchor tag to the summary buffer
     *
     * @param {string} text link text/content
     * @param {string} href hyperlink
     *
     * @returns {Summary} summary instance
     */
    addLink(text, href) {
        const element = this.wrap('a', text, { href });
        return this.addRaw(element).addEOL();
    }
}
const _summary = new Summary();
/**
 * @deprecated use `core.summary`
 */
const markdownSummary = _summary;
const summary = _summary;
//# sourceMappingURL=summary.js.map
;// CONCATENATED MODULE: ./node_modules/@actions/core/lib/path-utils.js

/**
 * toPosixPath converts the given path to the posix form. On Windows, \\ will be
 * replaced with /.
 *
 * @param pth. Path to transform.
 * @return string Posix path.
 */
function toPosixPath(pth) {
    return pth.replace(/[\\]/g, '/');
}
/**
 * toWin32Path converts the given path to the win32 form. On Linux, / will be
 * replaced with \\.
 *
 * @param pth. Path to transform.
 * @return string Win32 path.
 */
function toWin32Path(pth) {
    return pth.replace(/[/]/g, '\\');
}
/**
 * toPlatformPath converts the given path to a platform-specific path. It does
 * this by replacing instances of / and \ with the platform-specific path
 * separator.
 *
 * @param pth The path to platformize.
 * @return string The platform-specific path.
 */
function toPlatformPath(pth) {
    return pth.replace(/[/\\]/g, external_path_namespaceObject.sep);
}
//# sourceMappingURL=path-utils.js.map
// EXTERNAL MODULE: external "string_decoder"
var external_string_decoder_ = __nccwpck_require__(3193);
// EXTERNAL MODULE: external "events"
var external_events_ = __nccwpck_require__(4434);
;// CONCATENATED MODULE: external "child_process"
const external_child_process_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("child_process");
// EXTERNAL MODULE: external "assert"
var external_assert_ = __nccwpck_require__(2613);
;// CONCATENATED MODULE: ./node_modules/@actions/io/lib/io-util.js
var io_util_awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};


const { chmod, copyFile, lstat, mkdir, open: io_util_open, readdir, rename, rm, rmdir, stat, symlink, unlink } = external_fs_.promises;
// export const {open} = 'fs'
const IS_WINDOWS = process.platform === 'win32';
/**
 * Custom implementation of readlink to ensure Windows junctions
 * maintain trailing backslash for backward compatibility with Node.js < 24
 *
 * In Node.js 20, Windows junctions (directory symlinks) always returned paths
 * with trailing backslashes. Node.js 24 removed this behavior, which breaks
 * code that relied on this format for path operations.
 *
 * This implementation restores the Node 20 behavior by adding a trailing
 * backslash to all junction results on Windows.
 */
function readlink(fsPath) {
    return io_util_awaiter(this, void 0, void 0, function* () {
        const result = yield fs.promises.readlink(fsPath);
        // On Windows, restore Node 20 behavior: add trailing backslash to all results
        // since junctions on Windows are always directory links
        if (IS_WINDOWS && !result.endsWith('\\')) {
            return `${result}\\`;
        }
        return result;
    });
}
// See https://github.com/nodejs/node/blob/d0153aee367422d0858105abec186da4dff0a0c5/deps/uv/include/uv/win.h#L691
const UV_FS_O_EXLOCK = 0x10000000;
const READONLY = external_fs_.constants.O_RDONLY;
function exists(fsPath) {
    return io_util_awaiter(this, void 0, void 0, function* () {
        try {
            yield stat(fsPath);
        }
        catch (err) {
            if (err.code === 'ENOENT') {
                return false;
            }
            throw err;
        }
        return true;
    });
}
function isDirectory(fsPath_1) {
    return io_util_awaiter(this, arguments, void 0, function* (fsPath, useStat = false) {
        const stats = useStat ? yield stat(fsPath) : yield lstat(fsPath);
        return stats.isDirectory();
    });
}
/**
 * On OSX/Linux, true if path starts with '/'. On Windows, true for paths like:
 * \, \hello, \\hello\share, C:, and C:\hello (and corresponding alternate separator cases).
 */
function isRooted(p) {
    p = normalizeSeparators(p);
    if (!p) {
        throw new Error('isRooted() parameter "p" cannot be empty');
    }
    if (IS_WINDOWS) {
        return (p.startsWith('\\') || /^[A-Z]:/i.test(p) // e.g. \ or \hello or \\hello
        ); // e.g. C: or C:\hello
    }
    return p.startsWith('/');
}
/**
 * Best effort attempt to determine whether a file exists and is executable.
 * @param filePath    file path to check
 * @param extensions  additional file extensions to try
 * @return if file exists and is executable, returns the file path. otherwise empty string.
 */
function tryGetExecutablePath(filePath, extensions) {
    return io_util_awaiter(this, void 0, void 0, function* () {
        let stats = undefined;
        try {
            // test file exists
            stats = yield stat(filePath);
        }
        catch (err) {
            if (err.code !== 'ENOENT') {
                // eslint-disable-next-line no-console
                console.log(`Unexpected error attempting to determine if executable file exists '${filePath}': ${err}`);
            }
        }
        if (stats && stats.isFile()) {
            if (IS_WINDOWS) {
                // on Windows, test for valid extension
                const upperExt = external_path_namespaceObject.extname(filePath).toUpperCase();
                if (extensions.some(validExt => validExt.toUpperCase() === upperExt)) {
                    return filePath;
                }
            }
            else {
                if (isUnixExecutable(stats)) {
                    return filePath;
                }
            }
        }
        // try each extension
        const originalFilePath = filePath;
        for (const extension of extensions) {
            filePath = originalFilePath + extension;
            stats = undefined;
            try {
                stats = yield stat(filePath);
            }
            catch (err) {
                if (err.code !== 'ENOENT') {
                    // eslint-disable-next-line no-console
                    console.log(`Unexpected error attempting to determine if executable file exists '${filePath}': ${err}`);
                }
            }
            if (stats && stats.isFile()) {
                if (IS_WINDOWS) {
                    // preserve the case of the actual file (since an extension was appended)
                    try {
                        const directory = external_path_namespaceObject.dirname(filePath);
                        const upperName = external_path_namespaceObject.basename(filePath).toUpperCase();
                        for (const actualName of yield readdir(directory)) {
                            if (upperName === actualName.toUpperCase()) {
                                filePath = external_path_namespaceObject.join(directory, actualName);
                                break;
                            }
                        }
                    }
                    catch (err) {
                        // eslint-disable-next-line no-console
                        console.log(`Unexpected error attempting to determine the actual case of the file '${filePath}': ${err}`);
                    }
                    return filePath;
                }
                else {
                    if (isUnixExecutable(stats)) {
                        return filePath;
                    }
                }
            }
        }
        return '';
    });
}
function normalizeSeparators(p) {
    p = p || '';
    if (IS_WINDOWS) {
        // convert slashes on Windows
        p = p.replace(/\//g, '\\');
        // remove redundant slashes
        return p.replace(/\\\\+/g, '\\');
    }
    // remove redundant slashes
    return p.replace(/\/\/+/g, '/');
}
// on Mac/Linux, test the execute bit
//     R   W  X  R  W X R W X
//   256 128 64 32 16 8 4 2 1
function isUnixExecutable(stats) {
    return ((stats.mode & 1) > 0 ||
        ((stats.mode & 8) > 0 &&
            process.getgid !== undefined &&
            stats.gid === process.getgid()) ||
        ((stats.mode & 64) > 0 &&
            process.getuid !== undefined &&
            stats.uid === process.getuid()));
}
// Get the path of cmd.exe in windows
function getCmdPath() {
    var _a;
    return (_a = process.env['COMSPEC']) !== null && _a !== void 0 ? _a : `cmd.exe`;
}
//# sourceMappingURL=io-util.js.map
;// CONCATENATED MODULE: ./node_modules/@actions/io/lib/io.js
var io_awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};



/**
 * Copies a file or folder.
 * Based off of shelljs - https://github.com/shelljs/shelljs/blob/9237f66c52e5daa40458f94f9565e18e8132f5a6/src/cp.js
 *
 * @param     source    source path
 * @param     dest      destination path
 * @param     options   optional. See CopyOptions.
 */
function cp(source_1, dest_1) {
    return io_awaiter(this, arguments, void 0, function* (source, dest, options = {}) {
        const { force, recursive, copySourceDirectory } = readCopyOptions(options);
        const destStat = (yield ioUtil.exists(dest)) ? yield ioUtil.stat(dest) : null;
        // Dest is an existing file, but not forcing
        if (destStat && destStat.isFile() && !force) {
            return;
        }
        // If dest is an existing directory, should copy inside.
        const newDest = destStat && destStat.isDirectory() && copySourceDirectory
            ? path.join(dest, path.basename(source))
            : dest;
        if (!(yield ioUtil.exists(source))) {
            throw new Error(`no such file or directory: ${source}`);
        }
        const sourceStat = yield ioUtil.stat(source);
        if (sourceStat.isDirectory()) {
            if (!recursive) {
                throw new Error(`Failed to copy. ${source} is a directory, but tried to copy without recursive flag.`);
            }
            else {
                yield cpDirRecursive(source, newDest, 0, force);
            }
        }
        else {
            if (path.relative(source, newDest) === '') {
                // a file cannot be copied to itself
                throw new Error(`'${newDest}' and '${source}' are the same file`);
            }
            yield io_copyFile(source, newDest, force);
        }
    });
}
/**
 * Moves a path.
 *
 * @param     source    source path
 * @param     dest      destination path
 * @param     options   optional. See MoveOptions.
 */
function mv(source_1, dest_1) {
    return io_awaiter(this, arguments, void 0, function* (source, dest, options = {}) {
        if (yield ioUtil.exists(dest)) {
            let destExists = true;
            if (yield ioUtil.isDirectory(dest)) {
                // If dest is directory copy src into dest
                dest = path.join(dest, path.basename(source));
                destExists = yield ioUtil.exists(dest);
            }
            if (destExists) {
                if (options.force == null || options.force) {
                    yield rmRF(dest);
                }
                else {
                    throw new Error('Destination already exists');
                }
            }
        }
        yield mkdirP(path.dirname(dest));
        yield ioUtil.rename(source, dest);
    });
}
/**
 * Remove a path recursively with force
 *
 * @param inputPath path to remove
 */
function rmRF(inputPath) {
    return io_awaiter(this, void 0, void 0, function* () {
        if (ioUtil.IS_WINDOWS) {
            // Check for invalid characters
            // https://docs.microsoft.com/en-us/windows/win32/fileio/naming-a-file
            if (/[*"<>|]/.test(inputPath)) {
                throw new Error('File path must not contain `*`, `"`, `<`, `>` or `|` on Windows');
            }
        }
        try {
            // note if path does not exist, error is silent
            yield ioUtil.rm(inputPath, {
                force: true,
                maxRetries: 3,
                recursive: true,
                retryDelay: 300
            });
        }
        catch (err) {
            throw new Error(`File was unable to be removed ${err}`);
        }
    });
}
/**
 * Make a directory.  Creates the full path with folders in between
 * Will throw if it fails
 *
 * @param   fsPath        path to create
 * @returns Promise<void>
 */
function mkdirP(fsPath) {
    return io_awaiter(this, void 0, void 0, function* () {
        ok(fsPath, 'a path argument must be provided');
        yield ioUtil.mkdir(fsPath, { recursive: true });
    });
}
/**
 * Returns path of a tool had the tool actually been invoked.  Resolves via paths.
 * If you check and the tool does not exist, it will throw.
 *
 * @param     tool              name of the tool
 * @param     check             whether to check if tool exists
 * @returns   Promise<string>   path to tool
 */
function which(tool, check) {
    return io_awaiter(this, void 0, void 0, function* () {
        if (!tool) {
            throw new Error("parameter 'tool' is required");
        }
        // recursive when check=true
        if (check) {
            const result = yield which(tool, false);
            if (!result) {
                if (IS_WINDOWS) {
                    throw new Error(`Unable to locate executable file: ${tool}. Please verify either the file path exists or the file can be found within a directory specified by the PATH environment variable. Also verify the file has a valid extension for an executable file.`);
                }
                else {
                    throw new Error(`Unable to locate executable file: ${tool}. Please verify either the file path exists or the file can be found within a directory specified by the PATH environment variable. Also check the file mode to verify the file is executable.`);
                }
            }
            return result;
        }
        const matches = yield findInPath(tool);
        if (matches && matches.length > 0) {
            return matches[0];
        }
        return '';
    });
}
/**
 * Returns a list of all occurrences of the given tool on the system path.
 *
 * @returns   Promise<string[]>  the paths of the tool
 */
function findInPath(tool) {
    return io_awaiter(this, void 0, void 0, function* () {
        if (!tool) {
            throw new Error("parameter 'tool' is required");
        }
        // build the list of extensions to try
        const extensions = [];
        if (IS_WINDOWS && process.env['PATHEXT']) {
            for (const extension of process.env['PATHEXT'].split(external_path_namespaceObject.delimiter)) {
                if (extension) {
                    extensions.push(extension);
                }
            }
        }
        // if it's rooted, return it if exists. otherwise return empty.
        if (isRooted(tool)) {
            const filePath = yield tryGetExecutablePath(tool, extensions);
            if (filePath) {
                return [filePath];
            }
            return [];
        }
        // if any path separators, return empty
        if (tool.includes(external_path_namespaceObject.sep)) {
            return [];
        }
        // build the list of directories
        //
        // Note, technically "where" checks the current directory on Windows. From a toolkit perspective,
        // it feels like we should not do this. Checking the current directory seems like more of a use
        // case of a shell, and the which() function exposed by the toolkit should strive for consistency
        // across platforms.
        const directories = [];
        if (process.env.PATH) {
            for (const p of process.env.PATH.split(external_path_namespaceObject.delimiter)) {
                if (p) {
                    directories.push(p);
                }
            }
        }
        // find all matches
        const matches = [];
        for (const directory of directories) {
            const filePath = yield tryGetExecutablePath(external_path_namespaceObject.join(directory, tool), extensions);
            if (filePath) {
                matches.push(filePath);
            }
        }
        return matches;
    });
}
function readCopyOptions(options) {
    const force = options.force == null ? true : options.force;
    const recursive = Boolean(options.recursive);
    const copySourceDirectory = options.copySourceDirectory == null
        ? true
        : Boolean(options.copySourceDirectory);
    return { force, recursive, copySourceDirectory };
}
function cpDirRecursive(sourceDir, destDir, currentDepth, force) {
    return io_awaiter(this, void 0, void 0, function* () {
        // Ensure there is not a run away recursive copy
        if (currentDepth >= 255)
            return;
        currentDepth++;
        yield mkdirP(destDir);
        const files = yield ioUtil.readdir(sourceDir);
        for (const fileName of files) {
            const srcFile = `${sourceDir}/${fileName}`;
            const destFile = `${destDir}/${fileName}`;
            const srcFileStat = yield ioUtil.lstat(srcFile);
            if (srcFileStat.isDirectory()) {
                // Recurse
                yield cpDirRecursive(srcFile, destFile, currentDepth, force);
            }
            else {
                yield io_copyFile(srcFile, destFile, force);
            }
        }
        // Change the mode for the newly created directory
        yield ioUtil.chmod(destDir, (yield ioUtil.stat(sourceDir)).mode);
    });
}
// Buffered file copy
function io_copyFile(srcFile, destFile, force) {
    return io_awaiter(this, void 0, void 0, function* () {
        if ((yield ioUtil.lstat(srcFile)).isSymbolicLink()) {
            // unlink/re-link it
            try {
                yield ioUtil.lstat(destFile);
                yield ioUtil.unlink(destFile);
            }
            catch (e) {
                // Try to override file permission
                if (e.code === 'EPERM') {
                    yield ioUtil.chmod(destFile, '0666');
                    yield ioUtil.unlink(destFile);
                }
                // other errors = it doesn't exist, no work to do
            }
            // Copy over symlink
            const symlinkFull = yield ioUtil.readlink(srcFile);
            yield ioUtil.symlink(symlinkFull, destFile, ioUtil.IS_WINDOWS ? 'junction' : null);
        }
        else if (!(yield ioUtil.exists(destFile)) || force) {
            yield ioUtil.copyFile(srcFile, destFile);
        }
    });
}
//# sourceMappingURL=io.js.map
;// CONCATENATED MODULE: external "timers"
const external_timers_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("timers");
;// CONCATENATED MODULE: ./node_modules/@actions/exec/lib/toolrunner.js
var toolrunner_awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};







/* eslint-disable @typescript-eslint/unbound-method */
const toolrunner_IS_WINDOWS = process.platform === 'win32';
/*
 * Class for running command line tools. Handles quoting and arg parsing in a platform agnostic way.
 */
class ToolRunner extends external_events_.EventEmitter {
    constructor(toolPath, args, options) {
        super();
        if (!toolPath) {
            throw new Error("Parameter 'toolPath' cannot be null or empty.");
        }
        this.toolPath = toolPath;
        this.args = args || [];
        this.options = options || {};
    }
    _debug(message) {
        if (this.options.listeners && this.options.listeners.debug) {
            this.options.listeners.debug(message);
        }
    }
    _getCommandString(options, noPrefix) {
        const toolPath = this._getSpawnFileName();
        const args = this._getSpawnArgs(options);
        let cmd = noPrefix ? '' : '[command]'; // omit prefix when piped to a second tool
        if (toolrunner_IS_WINDOWS) {
            // Windows + cmd file
            if (this._isCmdFile()) {
                cmd += toolPath;
                for (const a of args) {
                    cmd += ` ${a}`;
                }
            }
            // Windows + verbatim
            else if (options.windowsVerbatimArguments) {
                cmd += `"${toolPath}"`;
                for (const a of args) {
                    cmd += ` ${a}`;
                }
            }
            // Windows (regular)
            else {
                cmd += this._windowsQuoteCmdArg(toolPath);
                for (const a of args) {
                    cmd += ` ${this._windowsQuoteCmdArg(a)}`;
                }
            }
        }
        else {
            // OSX/Linux - this can likely be improved with some form of quoting.
            // creating processes on Unix is fundamentally different than Windows.
            // on Unix, execvp() takes an arg array.
            cmd += toolPath;
            for (const a of args) {
                cmd += ` ${a}`;
            }
        }
        return cmd;
    }
    _processLineBuffer(data, strBuffer, onLine) {
        try {
            let s = strBuffer + data.toString();
            let n = s.indexOf(external_os_.EOL);
            while (n > -1) {
                const line = s.substring(0, n);
                onLine(line);
                // the rest of the string ...
                s = s.substring(n + external_os_.EOL.length);
                n = s.indexOf(external_os_.EOL);
            }
            return s;
        }
        catch (err) {
            // streaming lines to console is best effort.  Don't fail a build.
            this._debug(`error processing line. Failed with error ${err}`);
            return '';
        }
    }
    _getSpawnFileName() {
        if (toolrunner_IS_WINDOWS) {
            if (this._isCmdFile()) {
                return process.env['COMSPEC'] || 'cmd.exe';
            }
        }
        return this.toolPath;
    }
    _getSpawnArgs(options) {
        if (toolrunner_IS_WINDOWS) {
            if (this._isCmdFile()) {
                let argline = `/D /S /C "${this._windowsQuoteCmdArg(this.toolPath)}`;
                for (const a of this.args) {
                    argline += ' ';
                    argline += options.windowsVerbatimArguments
                        ? a
                        : this._windowsQuoteCmdArg(a);
                }
                argline += '"';
                return [argline];
            }
        }
        return this.args;
    }
    _endsWith(str, end) {
        return str.endsWith(end);
    }
    _isCmdFile() {
        const upperToolPath = this.toolPath.toUpperCase();
        return (this._endsWith(upperToolPath, '.CMD') ||
            this._endsWith(upperToolPath, '.BAT'));
    }
    _windowsQuoteCmdArg(arg) {
        // for .exe, apply the normal quoting rules that libuv applies
        if (!this._isCmdFile()) {
            return this._uvQuoteCmdArg(arg);
        }
        // otherwise apply quoting rules specific to the cmd.exe command line parser.
        // the libuv rules are generic and are not designed specifically for cmd.exe
        // command line parser.
        //
        // for a detailed description of the cmd.exe command line parser, refer to
        // http://stackoverflow.com/questions/4094699/how-does-the-windows-command-interpreter-cmd-exe-parse-scripts/7970912#7970912
        // need quotes for empty arg
        if (!arg) {
            return '""';
        }
        // determine whether the arg needs to be quoted
        const cmdSpecialChars = [
            ' ',
            '\t',
            '&',
            '(',
            ')',
            '[',
            ']',
            '{',
            '}',
            '^',
            '=',
            ';',
            '!',
            "'",
            '+',
            ',',
            '`',
            '~',
            '|',
            '<',
            '>',
            '"'
        ];
        let needsQuotes = false;
        for (const char of arg) {
            if (cmdSpecialChars.some(x => x === char)) {
                needsQuotes = true;
                break;
            }
        }
        // short-circuit if quotes not needed
        if (!needsQuotes) {
            return arg;
        }
        // the following quoting rules are very similar to the rules that by libuv applies.
        //
        // 1) wrap the string in quotes
        //
        // 2) double-up quotes - i.e. " => ""
        //
        //    this is different from the libuv quoting rules. libuv replaces " with \", which unfortunately
        //    doesn't work well with a cmd.exe command line.
        //
        //    note, replacing " with "" also works well if the arg is passed to a downstream .NET console app.
        //    for example, the command line:
        //          foo.exe "myarg:""my val"""
        //    is parsed by a .NET console app into an arg array:
        //          [ "myarg:\"my val\"" ]
        //    which is the same end result when applying libuv quoting rules. although the actual
        //    command line from libuv quoting rules would look like:
        //          foo.exe "myarg:\"my val\""
        //
        // 3) double-up slashes that precede a quote,
        //    e.g.  hello \world    => "hello \world"
        //          hello\"world    => "hello\\""world"
        //          hello\\"world   => "hello\\\\""world"
        //          hello world\    => "hello world\\"
        //
        //    technically this is not required for a cmd.exe command line, or the batch argument parser.
        //    the reasons for including this as a .cmd quoting rule are:
        //
        //    a) this is optimized for the scenario where the argument is passed from the .cmd file to an
        //       external program. many programs (e.g. .NET console apps) rely on the slash-doubling rule.
        //
        //    b) it's what we've been doing previously (by deferring to node default behavior) and we
        //       haven't heard any complaints about that aspect.
        //
        // note, a weakness of the quoting rules chosen here, is that % is not escaped. in fact, % cannot be
        // escaped when used on the command line directly - even though within a .cmd file % can be escaped
        // by using %%.
        //
        // the saving grace is, on the command line, %var% is left as-is if var is not defined. this contrasts
        // the line parsing rules within a .cmd file, where if var is not defined it is replaced with nothing.
        //
        // one option that was explored was replacing % with ^% - i.e. %var% => ^%var^%. this hack would
        // often work, since it is unlikely that var^ would exist, and the ^ character is removed when the
        // variable is used. the problem, however, is that ^ is not removed when %* is used to pass the args
        // to an external program.
        //
        // an unexplored potential solution for the % escaping problem, is to create a wrapper .cmd file.
        // % can be escaped within a .cmd file.
        let reverse = '"';
        let quoteHit = true;
        for (let i = arg.length; i > 0; i--) {
            // walk the string in reverse
            reverse += arg[i - 1];
            if (quoteHit && arg[i - 1] === '\\') {
                reverse += '\\'; // double the slash
            }
            else if (arg[i - 1] === '"') {
                quoteHit = true;
                reverse += '"'; // double the quote
            }
            else {
                quoteHit = false;
            }
        }
        reverse += '"';
        return reverse.split('').reverse().join('');
    }
    _uvQuoteCmdArg(arg) {
        // Tool runner wraps child_process.spawn() and needs to apply the same quoting as
        // Node in certain cases where the undocumented spawn option windowsVerbatimArguments
        // is used.
        //
        // Since this function is a port of quote_cmd_arg from Node 4.x (technically, lib UV,
        // see https://github.com/nodejs/node/blob/v4.x/deps/uv/src/win/process.c for details),
        // pasting copyright notice from Node within this function:
        //
        //      Copyright Joyent, Inc. and other Node contributors. All rights reserved.
        //
        //      Permission is hereby granted, free of charge, to any person obtaining a copy
        //      of this software and associated documentation files (the "Software"), to
        //      deal in the Software without restriction, including without limitation the
        //      rights to use, copy, modify, merge, publish, distribute, sublicense, and/or
        //      sell copies of the Software, and to permit persons to whom the Software is
        //      furnished to do so, subject to the following conditions:
        //
        //      The above copyright notice and this permission notice shall be included in
        //      all copies or substantial portions of the Software.
        //
        //      THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
        //      IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
        //      FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
        //      AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
        //      LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING
        //      FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS
        //      IN THE SOFTWARE.
        if (!arg) {
            // Need double quotation for empty argument
            return '""';
        }
        if (!arg.includes(' ') && !arg.includes('\t') && !arg.includes('"')) {
            // No quotation needed
            return arg;
        }
        if (!arg.includes('"') && !arg.includes('\\')) {
            // No embedded double quotes or backslashes, so I can just wrap
            // quote marks around the whole thing.
            return `"${arg}"`;
        }
        // Expected input/output:
        //   input : hello"world
        //   output: "hello\"world"
        //   input : hello""world
        //   output: "hello\"\"world"
        //   input : hello\world
        //   output: hello\world
        //   input : hello\\world
        //   output: hello\\world
        //   input : hello\"world
        //   output: "hello\\\"world"
        //   input : hello\\"world
        //   output: "hello\\\\\"world"
        //   input : hello world\
        //   output: "hello world\\" - note the comment in libuv actually reads "hello world\"
        //                             but it appears the comment is wrong, it should be "hello world\\"
        let reverse = '"';
        let quoteHit = true;
        for (let i = arg.length; i > 0; i--) {
            // walk the string in reverse
            reverse += arg[i - 1];
            if (quoteHit && arg[i - 1] === '\\') {
                reverse += '\\';
            }
            else if (arg[i - 1] === '"') {
                quoteHit = true;
                reverse += '\\';
            }
            else {
                quoteHit = false;
            }
        }
        reverse += '"';
        return reverse.split('').reverse().join('');
    }
    _cloneExecOptions(options) {
        options = options || {};
        const result = {
            cwd: options.cwd || process.cwd(),
            env: options.env || process.env,
            silent: options.silent || false,
            windowsVerbatimArguments: options.windowsVerbatimArguments || false,
            failOnStdErr: options.failOnStdErr || false,
            ignoreReturnCode: options.ignoreReturnCode || false,
            delay: options.delay || 10000
        };
        result.outStream = options.outStream || process.stdout;
        result.errStream = options.errStream || process.stderr;
        return result;
    }
    _getSpawnOptions(options, toolPath) {
        options = options || {};
        const result = {};
        result.cwd = options.cwd;
        result.env = options.env;
        result['windowsVerbatimArguments'] =
            options.windowsVerbatimArguments || this._isCmdFile();
        if (options.windowsVerbatimArguments) {
            result.argv0 = `"${toolPath}"`;
        }
        return result;
    }
    /**
     * Exec a tool.
     * Output will be streamed to the live console.
     * Returns promise with return code
     *
     * @param     tool     path to tool to exec
     * @param     options  optional exec options.  See ExecOptions
     * @returns   number
     */
    exec() {
        return toolrunner_awaiter(this, void 0, void 0, function* () {
            // root the tool path if it is unrooted and contains relative pathing
            if (!isRooted(this.toolPath) &&
                (this.toolPath.includes('/') ||
                    (toolrunner_IS_WINDOWS && this.toolPath.includes('\\')))) {
                // prefer options.cwd if it is specified, however options.cwd may also need to be rooted
                this.toolPath = external_path_namespaceObject.resolve(process.cwd(), this.options.cwd || process.cwd(), this.toolPath);
            }
            // if the tool is only a file name, then resolve it from the PATH
            // otherwise verify it exists (add extension on Windows if necessary)
            this.toolPath = yield which(this.toolPath, true);
            return new Promise((resolve, reject) => toolrunner_awaiter(this, void 0, void 0, function* () {
                this._debug(`exec tool: ${this.toolPath}`);
                this._debug('arguments:');
                for (const arg of this.args) {
                    this._debug(`   ${arg}`);
                }
                const optionsNonNull = this._cloneExecOptions(this.options);
                if (!optionsNonNull.silent && optionsNonNull.outStream) {
                    optionsNonNull.outStream.write(this._getCommandString(optionsNonNull) + external_os_.EOL);
                }
                const state = new ExecState(optionsNonNull, this.toolPath);
                state.on('debug', (message) => {
                    this._debug(message);
                });
                if (this.options.cwd && !(yield exists(this.options.cwd))) {
                    return reject(new Error(`The cwd: ${this.options.cwd} does not exist!`));
                }
                const fileName = this._getSpawnFileName();
                const cp = external_child_process_namespaceObject.spawn(fileName, this._getSpawnArgs(optionsNonNull), this._getSpawnOptions(this.options, fileName));
                let stdbuffer = '';
                if (cp.stdout) {
                    cp.stdout.on('data', (data) => {
                        if (this.options.listeners && this.options.listeners.stdout) {
                            this.options.listeners.stdout(data);
                        }
                        if (!optionsNonNull.silent && optionsNonNull.outStream) {
                            optionsNonNull.outStream.write(data);
                        }
                        stdbuffer = this._processLineBuffer(data, stdbuffer, (line) => {
                            if (this.options.listeners && this.options.listeners.stdline) {
                                this.options.listeners.stdline(line);
                            }
                        });
                    });
                }
                let errbuffer = '';
                if (cp.stderr) {
                    cp.stderr.on('data', (data) => {
                        state.processStderr = true;
                        if (this.options.listeners && this.options.listeners.stderr) {
                            this.options.listeners.stderr(data);
                        }
                        if (!optionsNonNull.silent &&
                            optionsNonNull.errStream &&
                            optionsNonNull.outStream) {
                            const s = optionsNonNull.failOnStdErr
                                ? optionsNonNull.errStream
                                : optionsNonNull.outStream;
                            s.write(data);
                        }
                        errbuffer = this._processLineBuffer(data, errbuffer, (line) => {
                            if (this.options.listeners && this.options.listeners.errline) {
                                this.options.listeners.errline(line);
                            }
                        });
                    });
                }
                cp.on('error', (err) => {
                    state.processError = err.message;
                    state.processExited = true;
                    state.processClosed = true;
                    state.CheckComplete();
                });
                cp.on('exit', (code) => {
                    state.processExitCode = code;
                    state.processExited = true;
                    this._debug(`Exit code ${code} received from tool '${this.toolPath}'`);
                    state.CheckComplete();
                });
                cp.on('close', (code) => {
                    state.processExitCode = code;
                    state.processExited = true;
                    state.processClosed = true;
                    this._debug(`STDIO streams have closed for tool '${this.toolPath}'`);
                    state.CheckComplete();
                });
                state.on('done', (error, exitCode) => {
                    if (stdbuffer.length > 0) {
                        this.emit('stdline', stdbuffer);
                    }
                    if (errbuffer.length > 0) {
                        this.emit('errline', errbuffer);
                    }
                    cp.removeAllListeners();
                    if (error) {
                        reject(error);
                    }
                    else {
                        resolve(exitCode);
                    }
                });
                if (this.options.input) {
                    if (!cp.stdin) {
                        throw new Error('child process missing stdin');
                    }
                    cp.stdin.end(this.options.input);
                }
            }));
        });
    }
}
/**
 * Convert an arg string to an array of args. Handles escaping
 *
 * @param    argString   string of arguments
 * @returns  string[]    array of arguments
 */
function argStringToArray(argString) {
    const args = [];
    let inQuotes = false;
    let escaped = false;
    let arg = '';
    function append(c) {
        // we only escape double quotes.
        if (escaped && c !== '"') {
            arg += '\\';
        }
        arg += c;
        escaped = false;
    }
    for (let i = 0; i < argString.length; i++) {
        const c = argString.charAt(i);
        if (c === '"') {
            if (!escaped) {
                inQuotes = !inQuotes;
            }
            else {
                append(c);
            }
            continue;
        }
        if (c === '\\' && escaped) {
            append(c);
            continue;
        }
        if (c === '\\' && inQuotes) {
            escaped = true;
            continue;
        }
        if (c === ' ' && !inQuotes) {
            if (arg.length > 0) {
                args.push(arg);
                arg = '';
            }
            continue;
        }
        append(c);
    }
    if (arg.length > 0) {
        args.push(arg.trim());
    }
    return args;
}
class ExecState extends external_events_.EventEmitter {
    constructor(options, toolPath) {
        super();
        this.processClosed = false; // tracks whether the process has exited and stdio is closed
        this.processError = '';
        this.processExitCode = 0;
        this.processExited = false; // tracks whether the process has exited
        this.processStderr = false; // tracks whether stderr was written to
        this.delay = 10000; // 10 seconds
        this.done = false;
        this.timeout = null;
        if (!toolPath) {
            throw new Error('toolPath must not be empty');
        }
        this.options = options;
        this.toolPath = toolPath;
        if (options.delay) {
            this.delay = options.delay;
        }
    }
    CheckComplete() {
        if (this.done) {
            return;
        }
        if (this.processClosed) {
            this._setResult();
        }
        else if (this.processExited) {
            this.timeout = (0,external_timers_namespaceObject.setTimeout)(ExecState.HandleTimeout, this.delay, this);
        }
    }
    _debug(message) {
        this.emit('debug', message);
    }
    _setResult() {
        // determine whether there is an error
        let error;
        if (this.processExited) {
            if (this.processError) {
                error = new Error(`There was an error when attempting to execute the process '${this.toolPath}'. This may indicate the process failed to start. Error: ${this.processError}`);
            }
            else if (this.processExitCode !== 0 && !this.options.ignoreReturnCode) {
                error = new Error(`The process '${this.toolPath}' failed with exit code ${this.processExitCode}`);
            }
            else if (this.processStderr && this.options.failOnStdErr) {
                error = new Error(`The process '${this.toolPath}' failed because one or more lines were written to the STDERR stream`);
            }
        }
        // clear the timeout
        if (this.timeout) {
            clearTimeout(this.timeout);
            this.timeout = null;
        }
        this.done = true;
        this.emit('done', error, this.processExitCode);
    }
    static HandleTimeout(state) {
        if (state.done) {
            return;
        }
        if (!state.processClosed && state.processExited) {
            const message = `The STDIO streams did not close within ${state.delay / 1000} seconds of the exit event from process '${state.toolPath}'. This may indicate a child process inherited the STDIO streams and has not yet exited.`;
            state._debug(message);
        }
        state._setResult();
    }
}
//# sourceMappingURL=toolrunner.js.map
;// CONCATENATED MODULE: ./node_modules/@actions/exec/lib/exec.js
var exec_awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};


/**
 * Exec a command.
 * Output will be streamed to the live console.
 * Returns promise with return code
 *
 * @param     commandLine        command to execute (can include additional args). Must be correctly escaped.
 * @param     args               optional arguments for tool. Escaping is handled by the lib.
 * @param     options            optional exec options.  See ExecOptions
 * @returns   Promise<number>    exit code
 */
function exec(commandLine, args, options) {
    return exec_awaiter(this, void 0, void 0, function* () {
        const commandArgs = argStringToArray(commandLine);
        if (commandArgs.length === 0) {
            throw new Error(`Parameter 'commandLine' cannot be null or empty.`);
        }
        // Path to tool to execute should be first arg
        const toolPath = commandArgs[0];
        args = commandArgs.slice(1).concat(args || []);
        const runner = new ToolRunner(toolPath, args, options);
        return runner.exec();
    });
}
/**
 * Exec a command and get the output.
 * Output will be streamed to the live console.
 * Returns promise with the exit code and collected stdout and stderr
 *
 * @param     commandLine           command to execute (can include additional args). Must be correctly escaped.
 * @param     args                  optional arguments for tool. Escaping is handled by the lib.
 * @param     options               optional exec options.  See ExecOptions
 * @returns   Promise<ExecOutput>   exit code, stdout, and stderr
 */
function getExecOutput(commandLine, args, options) {
    return exec_awaiter(this, void 0, void 0, function* () {
        var _a, _b;
        let stdout = '';
        let stderr = '';
        //Using string decoder covers the case where a mult-byte character is split
        const stdoutDecoder = new external_string_decoder_.StringDecoder('utf8');
        const stderrDecoder = new external_string_decoder_.StringDecoder('utf8');
        const originalStdoutListener = (_a = options === null || options === void 0 ? void 0 : options.listeners) === null || _a === void 0 ? void 0 : _a.stdout;
        const originalStdErrListener = (_b = options === null || options === void 0 ? void 0 : options.listeners) === null || _b === void 0 ? void 0 : _b.stderr;
        const stdErrListener = (data) => {
            stderr += stderrDecoder.write(data);
            if (originalStdErrListener) {
                originalStdErrListener(data);
            }
        };
        const stdOutListener = (data) => {
            stdout += stdoutDecoder.write(data);
            if (originalStdoutListener) {
                originalStdoutListener(data);
            }
        };
        const listeners = Object.assign(Object.assign({}, options === null || options === void 0 ? void 0 : options.listeners), { stdout: stdOutListener, stderr: stdErrListener });
        const exitCode = yield exec(commandLine, args, Object.assign(Object.assign({}, options), { listeners }));
        //flush any remaining characters
        stdout += stdoutDecoder.end();
        stderr += stderrDecoder.end();
        return {
            exitCode,
            stdout,
            stderr
        };
    });
}
//# sourceMappingURL=exec.js.map
;// CONCATENATED MODULE: ./node_modules/@actions/core/lib/platform.js
var platform_awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};


const getWindowsInfo = () => platform_awaiter(void 0, void 0, void 0, function* () {
    const { stdout: version } = yield getExecOutput('powershell -command "(Get-CimInstance -ClassName Win32_OperatingSystem).Version"', undefined, {
        silent: true
    });
    const { stdout: name } = yield getExecOutput('powershell -command "(Get-CimInstance -ClassName Win32_OperatingSystem).Caption"', undefined, {
        silent: true
    });
    return {
        name: name.trim(),
        version: version.trim()
    };
});
const getMacOsInfo = () => platform_awaiter(void 0, void 0, void 0, function* () {
    var _a, _b, _c, _d;
    const { stdout } = yield getExecOutput('sw_vers', undefined, {
        silent: true
    });
    const version = (_b = (_a = stdout.match(/ProductVersion:\s*(.+)/)) === null || _a === void 0 ? void 0 : _a[1]) !== null && _b !== void 0 ? _b : '';
    const name = (_d = (_c = stdout.match(/ProductName:\s*(.+)/)) === null || _c === void 0 ? void 0 : _c[1]) !== null && _d !== void 0 ? _d : '';
    return {
        name,
        version
    };
});
const getLinuxInfo = () => platform_awaiter(void 0, void 0, void 0, function* () {
    const { stdout } = yield getExecOutput('lsb_release', ['-i', '-r', '-s'], {
        silent: true
    });
    const [name, version] = stdout.trim().split('\n');
    return {
        name,
        version
    };
});
const platform = external_os_.platform();
const arch = external_os_.arch();
const isWindows = platform === 'win32';
const isMacOS = platform === 'darwin';
const isLinux = platform === 'linux';
function getDetails() {
    return platform_awaiter(this, void 0, void 0, function* () {
        return Object.assign(Object.assign({}, (yield (isWindows
            ? getWindowsInfo()
            : isMacOS
                ? getMacOsInfo()
                : getLinuxInfo()))), { platform,
            arch,
            isWindows,
            isMacOS,
            isLinux });
    });
}
//# sourceMappingURL=platform.js.map
;// CONCATENATED MODULE: ./node_modules/@actions/core/lib/core.js
var core_awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};






/**
 * The code to exit an action
 */
var ExitCode;
(function (ExitCode) {
    /**
     * A code indicating that the action was successful
     */
    ExitCode[ExitCode["Success"] = 0] = "Success";
    /**
     * A code indicating that the action was a failure
     */
    ExitCode[ExitCode["Failure"] = 1] = "Failure";
})(ExitCode || (ExitCode = {}));
//-----------------------------------------------------------------------
// Variables
//-----------------------------------------------------------------------
/**
 * Sets env variable for this action and future actions in the job
 * @param name the name of the variable to set
 * @param val the value of the variable. Non-string values will be converted to a string via JSON.stringify
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function exportVariable(name, val) {
    const convertedVal = toCommandValue(val);
    process.env[name] = convertedVal;
    const filePath = process.env['GITHUB_ENV'] || '';
    if (filePath) {
        return issueFileCommand('ENV', prepareKeyValueMessage(name, val));
    }
    issueCommand('set-env', { name }, convertedVal);
}
/**
 * Registers a secret which will get masked from logs
 *
 * @param secret - Value of the secret to be masked
 * @remarks
 * This function instructs the Actions runner to mask the specified value in any
 * logs produced during the workflow run. Once registered, the secret value will
 * be replaced with asterisks (***) whenever it appears in console output, logs,
 * or error messages.
 *
 * This is useful for protecting sensitive information such as:
 * - API keys
 * - Access tokens
 * - Authentication credentials
 * - URL parameters containing signatures (SAS tokens)
 *
 * Note that masking only affects future logs; any previous appearances of the
 * secret in logs before calling this function will remain unmasked.
 *
 * @example
 * ```typescript
 * // Register an API token as a secret
 * const apiToken = "abc123xyz456";
 * setSecret(apiToken);
 *
 * // Now any logs containing this value will show *** instead
 * console.log(`Using token: ${apiToken}`); // Outputs: "Using token: ***"
 * ```
 */
function setSecret(secret) {
    issueCommand('add-mask', {}, secret);
}
/**
 * Prepends inputPath to the PATH (for this action and future actions)
 * @param inputPath
 */
function addPath(inputPath) {
    const filePath = process.env['GITHUB_PATH'] || '';
    if (filePath) {
        issueFileCommand('PATH', inputPath);
    }
    else {
        issueCommand('add-path', {}, inputPath);
    }
    process.env['PATH'] = `${inputPath}${external_path_namespaceObject.delimiter}${process.env['PATH']}`;
}
/**
 * Gets the value of an input.
 * Unless trimWhitespace is set to false in InputOptions, the value is also trimmed.
 * Returns an empty string if the value is not defined.
 *
 * @param     name     name of the input to get
 * @param     options  optional. See InputOptions.
 * @returns   string
 */
function getInput(name, options) {
    const val = process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] || '';
    if (options && options.required && !val) {
        throw new Error(`Input required and not supplied: ${name}`);
    }
    if (options && options.trimWhitespace === false) {
        return val;
    }
    return val.trim();
}
/**
 * Gets the values of an multiline input.  Each value is also trimmed.
 *
 * @param     name     name of the input to get
 * @param     options  optional. See InputOptions.
 * @returns   string[]
 *
 */
function getMultilineInput(name, options) {
    const inputs = getInput(name, options)
        .split('\n')
        .filter(x => x !== '');
    if (options && options.trimWhitespace === false) {
        return inputs;
    }
    return inputs.map(input => input.trim());
}
/**
 * Gets the input value of the boolean type in the YAML 1.2 "core schema" specification.
 * Support boolean input list: `true | True | TRUE | false | False | FALSE` .
 * The return value is also in boolean type.
 * ref: https://yaml.org/spec/1.2/spec.html#id2804923
 *
 * @param     name     name of the input to get
 * @param     options  optional. See InputOptions.
 * @returns   boolean
 */
function getBooleanInput(name, options) {
    const trueValue = ['true', 'True', 'TRUE'];
    const falseValue = ['false', 'False', 'FALSE'];
    const val = getInput(name, options);
    if (trueValue.includes(val))
        return true;
    if (falseValue.includes(val))
        return false;
    throw new TypeError(`Input does not meet YAML 1.2 "Core Schema" specification: ${name}\n` +
        `Support boolean input list: \`true | True | TRUE | false | False | FALSE\``);
}
/**
 * Sets the value of an output.
 *
 * @param     name     name of the output to set
 * @param     value    value to store. Non-string values will be converted to a string via JSON.stringify
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function setOutput(name, value) {
    const filePath = process.env['GITHUB_OUTPUT'] || '';
    if (filePath) {
        return issueFileCommand('OUTPUT', prepareKeyValueMessage(name, value));
    }
    process.stdout.write(external_os_.EOL);
    issueCommand('set-output', { name }, toCommandValue(value));
}
/**
 * Enables or disables the echoing of commands into stdout for the rest of the step.
 * Echoing is disabled by default if ACTIONS_STEP_DEBUG is not set.
 *
 */
function setCommandEcho(enabled) {
    issue('echo', enabled ? 'on' : 'off');
}
//-----------------------------------------------------------------------
// Results
//-----------------------------------------------------------------------
/**
 * Sets the action status to failed.
 * When the action exits it will be with an exit code of 1
 * @param message add error issue message
 */
function setFailed(message) {
    process.exitCode = ExitCode.Failure;
    error(message);
}
//-----------------------------------------------------------------------
// Logging Commands
//-----------------------------------------------------------------------
/**
 * Gets whether Actions Step Debug is on or not
 */
function isDebug() {
    return process.env['RUNNER_DEBUG'] === '1';
}
/**
 * Writes debug message to user log
 * @param message debug message
 */
function debug(message) {
    issueCommand('debug', {}, message);
}
/**
 * Adds an error issue
 * @param message error issue message. Errors will be converted to string via toString()
 * @param properties optional properties to add to the annotation.
 */
function error(message, properties = {}) {
    issueCommand('error', toCommandProperties(properties), message instanceof Error ? message.toString() : message);
}
/**
 * Adds a warning issue
 * @param message warning issue message. Errors will be converted to string via toString()
 * @param properties optional properties to add to the annotation.
 */
function warning(message, properties = {}) {
    issueCommand('warning', toCommandProperties(properties), message instanceof Error ? message.toString() : message);
}
/**
 * Adds a notice issue
 * @param message notice issue message. Errors will be converted to string via toString()
 * @param properties optional properties to add to the annotation.
 */
function notice(message, properties = {}) {
    issueCommand('notice', toCommandProperties(properties), message instanceof Error ? message.toString() : message);
}
/**
 * Writes info to log with console.log.
 * @param message info message
 */
function info(message) {
    process.stdout.write(message + external_os_.EOL);
}
/**
 * Begin an output group.
 *
 * Output until the next `groupEnd` will be foldable in this group
 *
 * @param name The name of the output group
 */
function startGroup(name) {
    issue('group', name);
}
/**
 * End an output group.
 */
function endGroup() {
    issue('endgroup');
}
/**
 * Wrap an asynchronous function call in a group.
 *
 * Returns the same type as the function itself.
 *
 * @param name The name of the group
 * @param fn The function to wrap in the group
 */
function group(name, fn) {
    return core_awaiter(this, void 0, void 0, function* () {
        startGroup(name);
        let result;
        try {
            result = yield fn();
        }
        finally {
            endGroup();
        }
        return result;
    });
}
//-----------------------------------------------------------------------
// Wrapper action state
//-----------------------------------------------------------------------
/**
 * Saves state for current action, the state can only be retrieved by this action's post job execution.
 *
 * @param     name     name of the state to store
 * @param     value    value to store. Non-string values will be converted to a string via JSON.stringify
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function saveState(name, value) {
    const filePath = process.env['GITHUB_STATE'] || '';
    if (filePath) {
        return issueFileCommand('STATE', prepareKeyValueMessage(name, value));
    }
    issueCommand('save-state', { name }, toCommandValue(value));
}
/**
 * Gets the value of an state set by this action's main execution.
 *
 * @param     name     name of the state to get
 * @returns   string
 */
function getState(name) {
    return process.env[`STATE_${name}`] || '';
}
function getIDToken(aud) {
    return core_awaiter(this, void 0, void 0, function* () {
        return yield OidcClient.getIDToken(aud);
    });
}
/**
 * Summary exports
 */

/**
 * @deprecated use core.summary
 */

/**
 * Path exports
 */

/**
 * Platform utilities exports
 */

//# sourceMappingURL=core.js.map
;// CONCATENATED MODULE: ./src/api/body.ts


/** The JSON of an answer; undefined for an empty body. */
function jsonOf(method, response, names) {
    const text = response.body.trim();
    if (text === '')
        return undefined;
    try {
        return JSON.parse(text);
    }
    catch {
        throw new ApiError({
            kind: 'invalid-response',
            method,
            path: names.pathOf(response.url),
            status: response.status,
            detail: `returned HTTP ${response.status} but its body is not JSON: ${JSON.stringify(names.clean(text).slice(0, 120))}`
        });
    }
}
/** `value` checked against `schema`; the first problem names its field. */
function parseAs(schema, value, method, url, what, names) {
    const result = schema.safeParse(value);
    if (result.success)
        return result.data;
    const issue = result.error.issues[0];
    const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    throw new ApiError({
        kind: 'invalid-response',
        method,
        path: names.pathOf(url),
        detail: `returned ${what} that does not match the API: ${where}${issue.message}`
    });
}
/** A single resource of an answer: `{data: {...}}` or the bare object. */
function readOne(schema, method, response, what, names) {
    const body = jsonOf(method, response, names);
    const value = isMapping(body) && isMapping(body.data) ? body.data : body;
    return parseAs(schema, value, method, response.url, what, names);
}

;// CONCATENATED MODULE: ./src/api/pagination.ts
/**
 * How a collection comes back and where its next page is: the API document
 * says neither, so every common form is read (see docs/api-assumptions.md).
 * Pure functions; the client follows the pages and refuses other origins.
 */


/** Rows of a collection: a bare array, or `data` / `items` / `results`. */
function collectionOf(body) {
    if (Array.isArray(body))
        return body;
    if (isMapping(body)) {
        for (const key of ['data', 'items', 'results']) {
            if (Array.isArray(body[key]))
                return body[key];
        }
    }
    return undefined;
}
/** The `rel="next"` target of a Link header. */
function parseLinkNext(header) {
    if (!header)
        return undefined;
    const text = Array.isArray(header) ? header.join(',') : header;
    for (const part of text.split(/,(?=\s*<)/)) {
        const match = /^\s*<([^>]*)>(.*)$/.exec(part);
        if (match && /;\s*rel\s*=\s*"?([^";]*\s)?next(\s[^";]*)?"?/i.test(match[2]))
            return match[1];
    }
    return undefined;
}
/**
 * The next page after `current`, if the answer signals one: a Link header;
 * else a next URL in the body (`links.next`, `next`, `meta.next`: absolute,
 * under the base path, relative to the base URL, or a `?query`); else a
 * cursor (`nextCursor`, `next_cursor`, `meta.cursor`...) sent as `?cursor=`.
 * Another origin is returned as it is: the caller refuses it.
 */
function nextPageOf(link, body, current, base) {
    const linked = parseLinkNext(link);
    if (linked)
        return new URL(linked, current);
    if (!isMapping(body))
        return undefined;
    const links = isMapping(body.links) ? body.links : undefined;
    const meta = isMapping(body.meta) ? body.meta : isMapping(body.pagination) ? body.pagination : undefined;
    const urlLike = [links?.next, body.next, meta?.next].find(v => typeof v === 'string' && v !== '');
    const cursor = [body.nextCursor, body.next_cursor, meta?.nextCursor, meta?.next_cursor, meta?.cursor].find(v => typeof v === 'string' && v !== '');
    if (urlLike && /^(https?:\/\/|\/|\?)|\//.test(urlLike))
        return resolveNext(urlLike, current, base);
    if (!urlLike && !cursor)
        return undefined;
    const next = new URL(current.href);
    next.searchParams.set('cursor', (urlLike ?? cursor));
    return next;
}
/** A body's next link: absolute, origin-relative under the base path, or relative to the base URL. */
function resolveNext(next, current, base) {
    if (/^https?:\/\//.test(next))
        return new URL(next);
    if (next.startsWith('?'))
        return new URL(next, current);
    if (next.startsWith(base.pathname))
        return new URL(next, base.origin);
    return new URL(next.replace(/^\/+/, ''), base);
}
/**
 * Rows read across pages, each id once: with offset paging, a row inserted at
 * the head between two page reads shows the last row of one page again on the
 * next; it is one resource (the later read of it is kept, in the first place).
 */
class RowsById {
    items = [];
    placeOf = new Map();
    add(item) {
        const id = item?.id;
        if (typeof id !== 'string')
            return void this.items.push(item);
        const place = this.placeOf.get(id);
        if (place === undefined)
            this.placeOf.set(id, this.items.push(item) - 1);
        else
            this.items[place] = item;
    }
}
/** Why a next-page link is not followed (another origin: the key is never sent there; a page already read), or undefined. */
function refusedNextPage(next, base, seen) {
    if (next.origin !== base.origin) {
        return `returned a next-page link to another origin (${next.origin}); not followed, so the API key is not sent there`;
    }
    if (seen.has(next.href))
        return 'returned a next-page link to a page already read; stopped';
    return undefined;
}
/** A GET of a collection whose 2xx answer is not a list. */
function notAList(path, status) {
    return new ApiError({
        kind: 'invalid-response',
        method: 'GET',
        path,
        detail: `returned HTTP ${status} but not a list (expected an array or {"data": [...]})`
    });
}

;// CONCATENATED MODULE: ./src/api/pacer.ts
const realClock = {
    now: () => Date.now(),
    sleep: (ms, signal) => new Promise(resolve => {
        if (signal?.aborted)
            return resolve();
        const done = () => {
            clearTimeout(timer);
            signal?.removeEventListener('abort', done);
            resolve();
        };
        const timer = setTimeout(done, ms);
        signal?.addEventListener('abort', done, { once: true });
    })
};
/** Slack added to the window for the time a request takes to reach the server. */
const WINDOW_SLACK_MS = 250;
/** A reset further away than this is not waited for: the server's 429 decides (and the action gives up). */
const MAX_BUDGET_WAIT_MS = 120_000;
/**
 * All the waits the server's rate limit imposes on one client (a budget of
 * 0 left, a 429's pause) add up to at most this: a server that says
 * `Remaining: 0` with a reset just under 2 minutes on every answer would
 * otherwise hold a long sync for hours. Our own pacing (100 a minute) does
 * not count.
 */
const MAX_TOTAL_SERVER_WAIT_MS = 300_000;
/**
 * Requests spent by others, beyond our own, before the budget counts as shared:
 * more than our own requests in flight could account for by arriving out of order.
 */
const SHARED_AFTER = 4;
/** Others' pace is measured over at least this long, so that two answers close together do not inflate it. */
const MIN_PACE_SPAN_MS = 1000;
class Pacer {
    limit;
    windowMs;
    clock;
    starts = [];
    blockedUntil = 0;
    queue = Promise.resolve();
    /** Requests started so far: each start's number is its ticket. */
    started = 0;
    lastStartAt = Number.NEGATIVE_INFINITY;
    /** The newest budget the server stated, and the first one of the same window. */
    server;
    windowFirst;
    /**
     * Others spend the same budget: seen in the server's counts (for the rest of
     * this client's life: they are likely still there in the next window), or
     * assumed for this window because it was more than half spent when we came.
     */
    othersSeen = false;
    joinedSpent = false;
    get shared() {
        return this.othersSeen || this.joinedSpent;
    }
    /** How fast others spend it (requests per ms), measured over the current window. */
    othersRate = 0;
    /** Waited so far because the server said so (see MAX_TOTAL_SERVER_WAIT_MS). */
    serverWaitedMs = 0;
    constructor(limit, windowMs, clock = realClock) {
        this.limit = limit;
        this.windowMs = windowMs;
        this.clock = clock;
    }
    /**
     * Wait for a slot; resolves with the request's ticket (give it to `observe`)
     * when it may start. Slots are handed out in call order. When the slot comes
     * after `deadline` (ms), rejects at once with a PacingDeadline instead of
     * waiting; when `signal` aborts, the wait ends with a PacingCancelled.
     */
    take(deadline, signal) {
        const turn = this.queue.then(() => this.waitForSlot(deadline, signal));
        this.queue = turn.then(() => undefined, () => undefined);
        return turn;
    }
    /** After a 429: nobody starts before `ms` from now. */
    pause(ms) {
        this.blockedUntil = Math.max(this.blockedUntil, this.clock.now() + ms);
    }
    /** The server's rate-limit headers on the answer to request `ticket`. */
    observe(ticket, budget) {
        if (budget.resetInMs > MAX_BUDGET_WAIT_MS)
            return;
        const now = this.clock.now();
        const seen = { ticket, remaining: budget.remaining, resetAt: now + budget.resetInMs, at: now };
        const current = this.server;
        // A new window: the known one has passed, or the budget went up with a later reset (reset
        // headers are whole seconds, so a later reset alone is not enough).
        const newWindow = !current ||
            now >= current.resetAt ||
            (seen.resetAt > current.resetAt + 1000 && seen.remaining > current.remaining);
        if (!newWindow && ticket < current.ticket)
            return; // an older answer that arrived late
        if (newWindow) {
            this.server = seen;
            this.windowFirst = seen;
            this.joinedSpent = false;
            this.othersRate = 0;
            // Joining a window that is already more than half spent: assume whoever spent it is still
            // at it, and spread from the start rather than burst into what is left.
            const limit = budget.limit;
            if (current === undefined && limit !== undefined && limit - budget.remaining - 1 > limit / 2) {
                this.joinedSpent = true;
            }
            return;
        }
        this.server = seen;
        const first = this.windowFirst;
        const others = first.remaining - seen.remaining - (seen.ticket - first.ticket);
        if (others > SHARED_AFTER)
            this.othersSeen = true;
        if (this.shared)
            this.othersRate = Math.max(0, others) / Math.max(now - first.at, MIN_PACE_SPAN_MS);
    }
    /**
     * When the server's stated budget lets the next request start (now if it says
     * nothing). `spread` marks a wait that only spaces requests out: one that
     * would pass the caller's deadline is not made (the request goes now).
     */
    serverAllows(now) {
        const server = this.server;
        if (!server || now >= server.resetAt)
            return { until: now, spread: false };
        // Our own requests started after the observed one may not be counted in it yet; nor what
        // others (at the pace they showed) have spent since it was said.
        const others = this.shared ? Math.floor(this.othersRate * (now - server.at)) : 0;
        const left = server.remaining - (this.started - server.ticket) - others;
        if (left <= 0)
            return { until: server.resetAt, spread: false };
        if (!this.shared)
            return { until: now, spread: false };
        return { until: Math.max(now, this.lastStartAt + (server.resetAt - now) / left), spread: true };
    }
    async waitForSlot(deadline, signal) {
        for (;;) {
            if (signal?.aborted)
                throw new PacingCancelled();
            const now = this.clock.now();
            const window = this.windowMs + WINDOW_SLACK_MS;
            while (this.starts.length > 0 && this.starts[0] <= now - window)
                this.starts.shift();
            const server = this.serverAllows(now);
            const spread = server.spread && deadline !== undefined && server.until > deadline ? now : server.until;
            let until = Math.max(now, this.blockedUntil, spread);
            if (until <= now && this.starts.length >= this.limit)
                until = this.starts[0] + window;
            if (until <= now) {
                this.starts.push(now);
                this.lastStartAt = now;
                return ++this.started;
            }
            if (deadline !== undefined && until > deadline)
                throw new PacingDeadline(until - now);
            // The part of this wait the server imposed (its budget, a 429), against the overall bound.
            const imposed = Math.max(0, Math.min(until, Math.max(this.blockedUntil, server.spread ? now : server.until)) - now);
            if (this.serverWaitedMs + imposed > MAX_TOTAL_SERVER_WAIT_MS) {
                throw new PacingExhausted(this.serverWaitedMs, imposed);
            }
            this.serverWaitedMs += imposed;
            await this.clock.sleep(until - now, signal);
        }
    }
}
/** The next slot comes after the caller's deadline: not waited for. */
class PacingDeadline extends Error {
    waitMs;
    constructor(waitMs) {
        super(`the next request slot is ${(waitMs / 1000).toFixed(1)} s away (pacing to the rate limit)`);
        this.waitMs = waitMs;
        this.name = 'PacingDeadline';
    }
}
/** The server's rate limit has held this client too long in all: not waited for again. */
class PacingExhausted extends Error {
    waitedMs;
    nextMs;
    constructor(waitedMs, nextMs) {
        super(`the service's rate limit has already held this step ${Math.round(waitedMs / 1000)} s in all and asks ${Math.ceil(nextMs / 1000)} s more; the action waits at most ${MAX_TOTAL_SERVER_WAIT_MS / 60_000} minutes in all for it, so it stopped (another job may be spending the same key's budget)`);
        this.waitedMs = waitedMs;
        this.nextMs = nextMs;
        this.name = 'PacingExhausted';
    }
}
class PacingCancelled extends Error {
    constructor() {
        super('cancelled while waiting for a request slot');
        this.name = 'PacingCancelled';
    }
}

// EXTERNAL MODULE: external "node:http"
var external_node_http_ = __nccwpck_require__(7067);
;// CONCATENATED MODULE: external "node:https"
const external_node_https_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:https");
;// CONCATENATED MODULE: ./src/api/transport.ts
/**
 * One HTTP exchange: send a request, read the whole answer, within one time
 * limit that covers connecting, the headers and the body. At the limit the
 * request is aborted and its socket destroyed, so a server that trickles bytes
 * cannot keep the process alive. Proxies (HTTPS_PROXY, no_proxy) are honoured
 * through the agent `@actions/http-client` builds for the URL. Redirects are
 * followed within the origin only (`exchangeFollowing`), so the key never
 * leaves it.
 */



/** Certificate problems: retrying cannot help; trusting the CA can. */
const TLS_CODES = new Set([
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    'SELF_SIGNED_CERT_IN_CHAIN',
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    'UNABLE_TO_GET_ISSUER_CERT',
    'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
    'CERT_HAS_EXPIRED',
    'CERT_NOT_YET_VALID',
    'CERT_UNTRUSTED',
    'CERT_REJECTED',
    'CERT_SIGNATURE_FAILURE',
    'ERR_TLS_CERT_ALTNAME_INVALID',
    'HOSTNAME_MISMATCH'
]);
const NETWORK_REASONS = {
    ECONNREFUSED: 'connection refused (is base-url right, and is the service up?)',
    ECONNRESET: 'the connection was reset',
    ENOTFOUND: 'the host name could not be resolved (check base-url)',
    EAI_AGAIN: 'the host name could not be resolved (DNS failure)',
    ETIMEDOUT: 'the connection timed out',
    EHOSTUNREACH: 'the host is unreachable',
    ENETUNREACH: 'the network is unreachable',
    EPIPE: 'the connection was closed'
};
/**
 * An https request that met a server speaking something else (plain http, as
 * a rule): OpenSSL's "wrong version number" and its kin. Retrying cannot help;
 * the message names the scheme, not OpenSSL's dump.
 */
function notTls(error) {
    return (error.code === 'EPROTO' ||
        (error.code ?? '').startsWith('ERR_SSL_') ||
        /wrong version number|packet length too long|unknown protocol|SSL routines/i.test(error.message));
}
/** How a low-level failure reads in a message (without method and path). */
function networkReason(error) {
    if (error.code && NETWORK_REASONS[error.code])
        return `${NETWORK_REASONS[error.code]} [${error.code}]`;
    if (error.message === 'socket hang up')
        return 'the connection was dropped before an answer (socket hang up)';
    return error.message || String(error);
}
/**
 * Send one request and read the answer. Throws an ApiError of kind `timeout`,
 * `network`, `tls` or `invalid-response`, naming `method` and `path`.
 */
function exchange(method, url, headers, body, options, names) {
    const fail = (kind, detail) => new ApiError({ kind, method: names.method, path: names.path, detail });
    const abort = names.method === 'GET' ? options.abort : undefined;
    if (abort?.aborted)
        return Promise.reject(fail('cancelled', 'was not sent: the job is being cancelled'));
    // A hard deadline sooner than request-timeout cuts the exchange there (kind `deadline`: never retried).
    const left = options.cut ? options.cut.at - options.cut.now() : Number.POSITIVE_INFINITY;
    if (left <= 0)
        return Promise.reject(fail('deadline', "was not sent: the operation's time limit was reached"));
    return new Promise((resolve, reject) => {
        let settled = false;
        let request;
        const cancel = () => finish(fail('cancelled', 'was cut off: the job is being cancelled'));
        const finish = (error, value) => {
            if (settled)
                return;
            settled = true;
            clearTimeout(timer);
            abort?.removeEventListener('abort', cancel);
            if (error) {
                // Abort: the request and its socket go, whatever stage they were at.
                request?.destroy();
                reject(error);
            }
            else
                resolve(value);
        };
        const timer = setTimeout(() => finish(left < options.timeoutMs
            ? fail('deadline', `was cut off after ${Math.round(left)} ms: the operation's time limit was reached`)
            : fail('timeout', `timed out after ${options.timeoutMs} ms (request-timeout)`)), Math.min(left, options.timeoutMs));
        abort?.addEventListener('abort', cancel, { once: true });
        const lib = url.protocol === 'https:' ? external_node_https_namespaceObject : external_node_http_;
        const requestHeaders = { ...headers };
        if (body !== undefined)
            requestHeaders['Content-Length'] = String(Buffer.byteLength(body));
        try {
            request = lib.request({
                protocol: url.protocol,
                // URL keeps IPv6 literals in brackets; the socket wants the bare address.
                hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
                port: url.port || undefined,
                path: url.pathname + url.search,
                method,
                headers: requestHeaders,
                agent: options.agentFor?.(url)
            });
        }
        catch (error) {
            finish(fail('network', `could not be sent: ${error.message}`));
            return;
        }
        request.on('error', (error) => {
            const code = error.code ?? '';
            if (TLS_CODES.has(code) || /certificate/i.test(error.message)) {
                finish(fail('tls', `failed: the server's TLS certificate is not trusted (${code || error.message}: ${error.message}). ` +
                    'If the service uses a private or corporate CA, give the step NODE_EXTRA_CA_CERTS=/path/to/ca.pem in its env; not retried'));
                return;
            }
            if (url.protocol === 'https:' && notTls(error)) {
                finish(fail('tls', `failed: ${url.host} did not answer in TLS (${code || 'a TLS protocol error'}): base-url says https, and the server there seems to speak plain http. Check the scheme (and the port) of base-url; not retried`));
                return;
            }
            const proxy = options.proxyFor?.(url);
            if (proxy) {
                finish(fail('network', `failed: could not get through the proxy ${proxy} (from HTTPS_PROXY/HTTP_PROXY): ${networkReason(error)}. Check the proxy, or list the API's host in NO_PROXY`));
                return;
            }
            finish(fail('network', `failed: ${networkReason(error)}`));
        });
        request.on('response', (response) => {
            const chunks = [];
            let size = 0;
            response.on('data', (chunk) => {
                size += chunk.length;
                if (size > options.maxBytes) {
                    finish(fail('invalid-response', `answered with a body larger than ${options.maxBytes} bytes; not read`));
                    return;
                }
                chunks.push(chunk);
            });
            response.on('end', () => finish(undefined, {
                status: response.statusCode ?? 0,
                headers: response.headers,
                body: Buffer.concat(chunks).toString('utf8')
            }));
            response.on('error', (error) => finish(fail('network', `failed: the connection broke while reading the answer (${error.message})`)));
            response.on('close', () => {
                if (!response.complete)
                    finish(fail('network', 'failed: the connection was closed before the whole answer arrived'));
            });
        });
        request.end(body);
    });
}
const MAX_REDIRECTS = 5;
/**
 * `exchange`, following redirects within `origin` (at most 5; a 303 becomes a
 * GET). `before` is called before each request is sent (to stop on a cancel,
 * to log); `pathOf` names a URL in messages. Resolves with the last answer and
 * its URL.
 */
async function exchangeFollowing(first, headers, options, route) {
    const names = { method: first.method, path: route.pathOf(first.url) };
    const refuse = (status, detail) => new ApiError({ kind: 'redirect', method: names.method, path: names.path, status, detail });
    let hop = first;
    for (let hops = 0;; hops++) {
        route.before(hop);
        const answer = await exchange(hop.method, hop.url, headers(hop), hop.body, options, names);
        const location = answer.headers.location;
        if (![301, 302, 303, 307, 308].includes(answer.status) || !location)
            return { ...answer, url: hop.url };
        let next;
        try {
            next = new URL(location, hop.url);
        }
        catch {
            throw refuse(answer.status, `was redirected (HTTP ${answer.status}) to an invalid Location header, ${JSON.stringify(route.clean(location).slice(0, 200))}; not followed`);
        }
        if (next.origin !== route.origin) {
            throw refuse(answer.status, `was redirected (HTTP ${answer.status}) to another origin, ${next.origin}; not followed, so the API key is not sent there. Check base-url.`);
        }
        if (hops >= MAX_REDIRECTS)
            throw refuse(answer.status, `was redirected more than ${MAX_REDIRECTS} times`);
        hop = answer.status === 303 ? { method: 'GET', url: next, body: undefined } : { ...hop, url: next };
    }
}

;// CONCATENATED MODULE: ./src/api/types.ts
const silentLogger = { debug: () => { }, info: () => { }, warning: () => { } };

;// CONCATENATED MODULE: ./src/api/client.ts
/**
 * The HTTP client of the monitoring API, composed of its parts: one exchange
 * with same-origin redirects (transport.ts), the retry decision (retry.ts),
 * pacing (pacer.ts), pages (pagination.ts) and errors that name the method,
 * path, status and the server's message (errors.ts). Bearer auth; `{data: ...}`
 * or bare bodies. It knows nothing of the runner: it is given a logger.
 */









const RATE_LIMIT = { limit: 100, windowMs: 60_000 };
const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
const DEFAULT_MAX_PAGES = 100;
class ApiClient {
    options;
    /** Absolute time (ms) after which no wait starts: set by `withDeadline`. */
    deadline;
    log;
    clock;
    random;
    maxPages;
    transport;
    base;
    pacer;
    constructor(options) {
        this.options = options;
        this.base = new URL(options.baseUrl.replace(/\/+$/, '') + '/');
        this.log = options.log ?? silentLogger;
        this.clock = options.clock ?? realClock;
        this.random = options.random ?? Math.random;
        this.pacer =
            options.pacer === undefined ? new Pacer(RATE_LIMIT.limit, RATE_LIMIT.windowMs, this.clock) : options.pacer;
        this.maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
        // @actions/http-client builds the agent for a URL: a tunnel through HTTPS_PROXY/HTTP_PROXY
        // unless NO_PROXY (or a loopback host) says otherwise. The exchange itself is ours (transport.ts).
        const agents = new HttpClient(options.userAgent ?? 'monitoring-action', [], { keepAlive: false });
        this.transport = {
            timeoutMs: options.requestTimeoutMs,
            maxBytes: options.maxResponseBytes ?? DEFAULT_MAX_BYTES,
            abort: options.signal,
            agentFor: url => agents.getAgent(url.href),
            proxyFor: url => withoutCredentials(lib_getProxyUrl(url.href)) || undefined
        };
    }
    /** The same client (same pacing), whose waits never pass `deadline` (ms since the epoch); `hard`: nor its requests. */
    withDeadline(deadline, hard = false) {
        const transport = hard ? { ...this.transport, cut: { at: deadline, now: () => this.clock.now() } } : this.transport;
        return Object.assign(Object.create(ApiClient.prototype), this, { deadline, transport });
    }
    get settings() {
        return { maxRetries: this.options.maxRetries, requestTimeoutMs: this.options.requestTimeoutMs };
    }
    /** The URL of a path under the base URL (`/checks` -> `{base}/checks`). */
    url(path) {
        return new URL(path.replace(/^\/+/, ''), this.base);
    }
    /** How a URL is named in messages: its path relative to the base URL. */
    pathOf(url) {
        const basePath = this.base.pathname.replace(/\/$/, '');
        if (url.origin === this.base.origin && url.pathname.startsWith(basePath + '/')) {
            return url.pathname.slice(basePath.length) + url.search;
        }
        return url.origin === this.base.origin ? url.pathname + url.search : `${url.origin}${url.pathname}`;
    }
    /** Server text for a message: the key redacted first, so that shortening it later cannot leave part of it. */
    clean(text) {
        return redact(text, [this.options.apiKey, ...(this.options.secrets ?? [])]);
    }
    // ---------------------------------------------------------------- waiting
    /** After a cancel, nothing new is sent. */
    throwIfCancelled(method, path) {
        if (this.options.signal?.aborted) {
            throw new ApiError({ kind: 'cancelled', method, path, detail: 'was not sent: the job is being cancelled' });
        }
    }
    /** Wait `ms` before a retry, unless that would pass the deadline. `why` is the failure, without method and path. */
    async waitToRetry(ms, method, path, why) {
        if (this.deadline !== undefined && this.clock.now() + ms > this.deadline) {
            throw new ApiError({
                kind: 'deadline',
                method,
                path,
                detail: `${why}; not retried, because the wait (${(ms / 1000).toFixed(1)} s) would pass the operation's time limit`
            });
        }
        this.throwIfCancelled(method, path);
        await this.clock.sleep(ms, this.options.signal);
        this.throwIfCancelled(method, path);
    }
    /** Wait for the pacer's slot (never past the deadline). Returns the pacer's ticket for this request. */
    async pace(method, path) {
        try {
            return (await this.pacer?.take(this.deadline, this.options.signal)) ?? 0;
        }
        catch (error) {
            if (error instanceof PacingDeadline) {
                throw new ApiError({
                    kind: 'deadline',
                    method,
                    path,
                    detail: `was not sent: ${error.message} would pass the operation's time limit`
                });
            }
            if (error instanceof PacingExhausted) {
                throw new ApiError({ kind: 'rate-limit', method, path, detail: `was not sent: ${error.message}` });
            }
            this.throwIfCancelled(method, path);
            throw error;
        }
    }
    // ---------------------------------------------------------------- sending
    /** One attempt: pace, then one exchange (following same-origin redirects), within request-timeout. */
    async attempt(method, url, body, path) {
        const ticket = await this.pace(method, path);
        const sent = this.clock.now();
        const answer = await exchangeFollowing({ method, url, body }, hop => ({
            Authorization: `Bearer ${this.options.apiKey}`,
            Accept: 'application/json',
            'User-Agent': this.options.userAgent ?? 'monitoring-action',
            ...(hop.body !== undefined ? { 'Content-Type': 'application/json' } : {})
        }), this.transport, {
            origin: this.base.origin,
            pathOf: u => this.pathOf(u),
            clean: text => this.clean(text),
            before: hop => {
                this.throwIfCancelled(method, path);
                this.log.debug(`${hop.method} ${this.pathOf(hop.url)}`);
            }
        });
        const budget = serverBudget(answer.headers, this.clock.now());
        if (budget)
            this.pacer?.observe(ticket, budget);
        return { ...answer, attempts: 1, tookMs: this.clock.now() - sent };
    }
    /**
     * Send a request with the retry policy (retry.ts `decide`). Resolves with a
     * 2xx (or, when `allowed` says so, another) response; throws an ApiError
     * otherwise. A POST is resent only after a 429.
     */
    async send(method, target, payload, allowed = () => false) {
        const url = typeof target === 'string' ? this.url(target) : target;
        const path = this.pathOf(url);
        const body = payload === undefined ? undefined : JSON.stringify(payload);
        const retries = this.options.maxRetries;
        for (let attempt = 1;; attempt++) {
            let response;
            let failure;
            try {
                response = await this.attempt(method, url, body, path);
            }
            catch (error) {
                const transient = error instanceof ApiError && (error.kind === 'network' || error.kind === 'timeout');
                if (!transient)
                    throw attempt > 1 && error instanceof ApiError ? withAttempts(error, attempt) : error;
                failure = error;
            }
            if (response) {
                response.attempts = attempt;
                if ((response.status >= 200 && response.status < 300) || allowed(response.status))
                    return response;
            }
            const outcome = response
                ? { status: response.status, headers: response.headers }
                : { failure: failure.kind };
            const decision = decide(method, attempt, retries, outcome, this.clock.now(), this.random);
            const status = response?.status;
            if (!decision.retry) {
                if (status === 429) {
                    throw rateLimitError(method, path, this.clean(response?.body ?? ''), attempt, decision.tooLongMs);
                }
                const error = failure ?? httpError(method, path, status, this.clean(response?.body ?? ''));
                throw attempt > 1 ? withAttempts(error, attempt) : error;
            }
            const seconds = `${(decision.waitMs / 1000).toFixed(1)} s`;
            const why = status === 429
                ? 'was rate limited (HTTP 429)'
                : status !== undefined
                    ? `failed: HTTP ${status}`
                    : failure.detail;
            // A retry is a log line, not a warning: a run whose retries end in success stays green. If
            // they do not, the error that fails the step says how many attempts were made.
            if (status === 429) {
                this.pacer?.pause(decision.waitMs);
                this.log.info(`${method} ${path}: rate limited (HTTP 429); retry ${attempt} of ${retries} in ${seconds}${decision.asked ? ' as the server asked' : ''}`);
            }
            else if (status !== undefined) {
                this.log.info(`${method} ${path}: HTTP ${status}; retry ${attempt} of ${retries} in ${seconds}`);
            }
            else {
                this.log.info(`${method} ${path}: ${why}; retry ${attempt} of ${retries} in ${seconds}`);
            }
            await this.waitToRetry(decision.waitMs, method, path, why);
        }
    }
    // ---------------------------------------------------------------- bodies
    /** A single resource of an answer: `{data: {...}}` or the bare object (body.ts). */
    readOne(schema, method, response, what) {
        return readOne(schema, method, response, what, this.names);
    }
    /** How bodies name URLs and show server text in errors. */
    get names() {
        return { pathOf: url => this.pathOf(url), clean: text => this.clean(text) };
    }
    // ---------------------------------------------------------------- verbs
    /** GET one resource; null on 404. */
    async getOrNull(path, schema, what) {
        const response = await this.send('GET', path, undefined, s => s === 404);
        if (response.status === 404)
            return null;
        return this.readOne(schema, 'GET', response, what);
    }
    async get(path, schema, what) {
        return this.readOne(schema, 'GET', await this.send('GET', path), what);
    }
    /** PUT a whole resource. Servers that answer with no body get the sent one back. */
    async put(path, body, schema, what) {
        const response = await this.send('PUT', path, body);
        if (response.body.trim() === '')
            return parseAs(schema, body, 'PUT', response.url, what, this.names);
        return this.readOne(schema, 'PUT', response, what);
    }
    /**
     * DELETE; false when the resource was already gone (404). A 404 on a retry,
     * after an attempt that failed ambiguously, means that attempt deleted it.
     */
    async delete(path) {
        const response = await this.send('DELETE', path, undefined, s => s === 404);
        return response.status !== 404 || response.attempts > 1;
    }
    /**
     * Every item of a collection, following the server's next-page signals
     * (pagination.ts), each id once (a row a shifted page repeats is one resource).
     * `enough`, given each page's rows in turn: true = the rest is not needed; no next page is read.
     */
    async list(path, schema, what, enough) {
        const rows = new RowsById();
        const seen = new Set();
        const stop = (at, detail) => new ApiError({ kind: 'pagination', method: 'GET', path: this.pathOf(at), detail });
        for (let next = this.url(path), pages = 1; next; pages++) {
            if (pages > this.maxPages)
                throw stop(this.url(path), `has more than ${this.maxPages} pages; stopped rather than read without end`);
            const current = next;
            seen.add(current.href);
            const response = await this.send('GET', current);
            const body = jsonOf('GET', response, this.names);
            const page = collectionOf(body);
            if (page === undefined)
                throw notAList(this.pathOf(current), response.status);
            const parsed = page.map((row, i) => parseAs(schema, row, 'GET', current, `${what} #${i + 1}`, this.names));
            parsed.forEach(row => rows.add(row));
            next = enough?.(parsed) ? undefined : nextPageOf(response.headers.link, body, current, this.base);
            const refused = next && refusedNextPage(next, this.base, seen);
            if (refused)
                throw stop(current, refused);
        }
        return rows.items;
    }
}

;// CONCATENATED MODULE: ./src/run-context.ts


/**
 * The run's facts. `@actions/github` (and its Octokit) is loaded only when an
 * operation asks for them, which keeps every other step's start-up fast.
 */
async function loadRunContext(env = process.env) {
    const { context } = await importGithub(env);
    return runContextOf(context, env);
}
/**
 * `@actions/github`, a chunk of its own. Its import builds Octokit's fetch for
 * the GitHub API, which reads undici's ProxyAgent when a proxy applies to that
 * URL: undici is loaded first then, and only then (evaluating it costs about
 * as much as the rest of the start).
 */
async function importGithub(env = process.env) {
    if (lib_getProxyUrl(env.GITHUB_API_URL || 'https://api.github.com'))
        await (0,modules.load)('undici');
    return __nccwpck_require__.e(/* import() */ 413).then(__nccwpck_require__.bind(__nccwpck_require__, 2413));
}
function runContextOf(ctx, env = process.env) {
    const serverUrl = (ctx.serverUrl || env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '');
    const repository = env.GITHUB_REPOSITORY ?? '';
    const runId = ctx.runId ? String(ctx.runId) : '';
    const runAttempt = ctx.runAttempt ? String(ctx.runAttempt) : (env.GITHUB_RUN_ATTEMPT ?? '');
    const sha = ctx.sha ?? '';
    return {
        workflow: ctx.workflow ?? '',
        job: ctx.job ?? '',
        repository,
        ref: ctx.ref ?? '',
        refName: env.GITHUB_REF_NAME || (ctx.ref ?? '').replace(/^refs\/(heads|tags)\//, ''),
        sha,
        shortSha: sha.slice(0, 7),
        runId,
        runNumber: ctx.runNumber ? String(ctx.runNumber) : '',
        runAttempt,
        actor: ctx.actor ?? '',
        eventName: ctx.eventName ?? '',
        serverUrl,
        runUrl: repository && runId
            ? `${serverUrl}/${repository}/actions/runs/${runId}${runAttempt ? `/attempts/${runAttempt}` : ''}`
            : '',
        commitUrl: repository && sha ? `${serverUrl}/${repository}/commit/${sha}` : ''
    };
}

;// CONCATENATED MODULE: ./src/step/context.ts
/**
 * The step's wiring: what run() is given (the runner, the clock, the API
 * client's maker, the signals), what an operation is given (its context),
 * the step's secrets, and the runner's cancel signals.
 */






/** Call `fn` at most once; later calls get the same promise. */
function once(fn) {
    let value;
    return () => (value ??= fn());
}
function makeApi(config, log, signal, secrets = []) {
    return new MonitoringApi(new ApiClient({
        baseUrl: config.baseUrl,
        apiKey: config.apiKey,
        secrets,
        maxRetries: config.maxRetries,
        requestTimeoutMs: config.requestTimeoutMs,
        log,
        signal,
        userAgent: 'monitoring-action/1'
    }));
}
function defaultDependencies() {
    return {
        core: lib_core_namespaceObject,
        clock: realClock,
        env: process.env,
        runContext: () => loadRunContext(),
        makeApi,
        signals: process,
        exit: code => process.exit(code)
    };
}
/**
 * Treat `value` as a secret from now on: the runner masks each of its forms
 * (raw, JSON-escaped, percent-encoded) in the log, and the action's own
 * redaction replaces them in everything it writes.
 */
function addSecret(runner, secrets, value, minLength = 4) {
    if (value.length < minLength || secrets.includes(value))
        return;
    for (const form of formsOf(value))
        runner.setSecret(form);
    secrets.push(value);
}
/** What an operation is given: the config, an API client, the log, the clock, the run, the cancel signal. */
function contextFor(deps, config, log, signal, startedAt, secrets, github) {
    return {
        config,
        api: deps.makeApi(config, log, signal, secrets),
        log,
        clock: deps.clock,
        startedAt,
        runContext: once(deps.runContext),
        jobUrl: github.jobUrl,
        workspace: deps.env.GITHUB_WORKSPACE || process.cwd(),
        env: deps.env,
        addSecret: value => addSecret(deps.core, secrets, value),
        redact: text => redact(text, secrets),
        redactValue: value => redactValue(value, secrets),
        remember: (name, value) => deps.core.saveState(name, value),
        signal
    };
}
/**
 * The runner cancels a job with SIGINT, then SIGTERM about 7.5 s later, then
 * runs the post steps. On SIGINT no new request starts, a read (GET) under
 * way is cut off at once (the step then still has the time to write its
 * outputs and reports), a write under way finishes (so its effect is known),
 * and the step ends failed; on SIGTERM the
 * process ends at once. What auto-resume needs was recorded before each
 * request, so the post step finds it either way.
 */
function onCancel(deps, log, controller) {
    const signals = deps.signals;
    if (!signals)
        return () => { };
    const interrupt = () => {
        log.warning('The job is being cancelled (SIGINT): no new request is sent; a read under way is cut off, a write under way may finish.');
        controller.abort();
    };
    const terminate = () => {
        log.warning('The job is being stopped (SIGTERM): ending now.');
        controller.abort();
        deps.exit?.(143);
    };
    signals.on('SIGINT', interrupt);
    signals.on('SIGTERM', terminate);
    return () => {
        signals.off('SIGINT', interrupt);
        signals.off('SIGTERM', terminate);
    };
}

;// CONCATENATED MODULE: ./src/step/failure.ts
/**
 * A failure, told so a user can act on it: one line for any thrown value,
 * a hint where the message alone would leave them guessing, the place in a
 * file to annotate, the stack of an unexpected error in the debug log, and
 * the summary of a step that failed.
 */




/** Any thrown value, as one line a user can act on (never only a stack trace). */
function messageOf(error) {
    if (error instanceof Error)
        return error.message || error.name;
    if (typeof error === 'string')
        return error;
    try {
        return `unexpected failure: ${JSON.stringify(error)}`;
    }
    catch {
        return `unexpected failure: ${String(error)}`;
    }
}
/**
 * What the user can do about an error, when the message alone would leave
 * them guessing: an empty key (an unset or withheld secret), a base URL
 * without its version segment or going past it (`.../v1/checks`), a name
 * not found in a list of names split on commas (a name that holds one).
 */
function hintFor(error, env, config) {
    if (error instanceof InputError && error.message.startsWith('api-key is required')) {
        const event = env.GITHUB_EVENT_NAME ?? '';
        if (event.startsWith('pull_request') || env.GITHUB_ACTOR === 'dependabot[bot]') {
            return ". Secrets are not passed to a workflow run for a pull request from a fork, nor to one Dependabot triggers, so the key is empty here. Skip the step there (if: github.event.pull_request.head.repo.fork != true && github.actor != 'dependabot[bot]'), or give Dependabot the secret under Settings > Secrets and variables > Dependabot";
        }
        // The runner passes an unset secret as an empty string: say which secret it could be, and where keys come from.
        // After base-url's own "It is empty: ..." (both unset), say which input this is about.
        const subject = error.message.includes('base-url is required') ? 'api-key' : 'It';
        return `. ${subject} is empty: the secret it reads is not set in this repository, or is withheld from this run (secrets are not passed to a workflow run for a pull request from a fork, nor to one Dependabot triggers). Store the key as a secret (Settings > Secrets and variables > Actions) and pass it: api-key: \${{ secrets.MONITORING_API_KEY }}. Keys are created in the service's account settings (API access)`;
    }
    if (error instanceof ApiError && error.status === 404 && config) {
        const base = config.baseUrl.replace(/\/+$/, '');
        const root = apiRootOf(base);
        if (root.past) {
            return `. The base-url ${base} goes past the API root (its path continues after the version segment), and the API answered 404: did you mean ${root.url}?`;
        }
        if (!root.versioned) {
            return `. The base-url ${base} has no version segment, and the API answered 404: did you mean ${root.url}/v1?`;
        }
    }
    if (error instanceof OperationError && /^no check named /.test(error.message) && config?.checkNamesByComma) {
        const names = config.checkNames.map(quote);
        const read = names.length > 6
            ? `${names.slice(0, 5).join(', ')} and ${names.length - 5} more`
            : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
        return `. check-name is a list for this operation: without a line break it splits on commas, so ${quote(config.checkNamesByComma)} was read as the names ${read}. Put names that hold a comma one per line (check-name: |)`;
    }
    return '';
}
/** The API's resources: a base-url path that reaches one of them went past the root. */
const RESOURCES = new Set(['checks', 'incidents', 'status-pages']);
/**
 * The API root a base-url means: up to its version segment (`/v1`) when its path goes on past it
 * (`.../v1/checks`); else without a resource path (`.../checks`), to which `/v1` is to be added.
 */
function apiRootOf(base) {
    const url = new URL(base);
    const segments = url.pathname.split('/').filter(Boolean);
    const version = segments.findIndex(segment => /^v\d+$/.test(segment));
    if (version >= 0) {
        const past = version < segments.length - 1;
        return { url: `${url.origin}/${segments.slice(0, version + 1).join('/')}`, versioned: true, past };
    }
    const resource = segments.findIndex(segment => RESOURCES.has(segment));
    const kept = resource >= 0 ? segments.slice(0, resource) : segments;
    return { url: `${url.origin}${kept.map(segment => `/${segment}`).join('')}`, versioned: false, past: false };
}
/** Where an error is in a file of the repository (a checks file's line), to annotate the failure there. */
function placeOf(error) {
    const place = error?.place;
    return place && typeof place === 'object' && typeof place.file === 'string'
        ? place
        : undefined;
}
/**
 * An unexpected error (a bug, not an API or input problem) leaves its stack in
 * the debug log (ACTIONS_STEP_DEBUG). The bundle's positions map to the source
 * only when the step sets NODE_OPTIONS=--enable-source-maps: the map is never
 * parsed otherwise, so starts and failures stay fast.
 */
function debugStack(log, error) {
    if (!(error instanceof Error) || error instanceof ApiError || error instanceof InputError)
        return;
    // Errors the action raises on purpose (about a file, a plan) say all there is: no stack.
    if (error instanceof OperationError || !error.stack || /^(ChecksFile|PlanFile)Error$/.test(error.name))
        return;
    log.debug('unexpected error; its stack (NODE_OPTIONS=--enable-source-maps maps it to the source):');
    for (const line of error.stack.split('\n'))
        log.debug(line);
}
function failureSummary(message, error) {
    const title = error instanceof InputError ? 'Bad input: nothing was sent' : 'The operation failed';
    return { title, lines: [message], tables: [] };
}

;// CONCATENATED MODULE: ./src/github/octokit.ts
/** `@actions/github` and an Octokit for a token: what every call to GitHub starts with. */


/** Octokit's requests go through undici's fetch: undici is loaded first. */
async function gitHubFor(token, env) {
    await (0,modules.load)('undici');
    const github = await importGithub(env);
    return { github, octokit: github.getOctokit(token) };
}

;// CONCATENATED MODULE: ./src/github/job-url.ts
/**
 * `{job_url}`: the job's own page. The runner does not say which job it is
 * running, but a runner runs one job at a time: the job of this run attempt
 * that is in progress on this runner (RUNNER_NAME) is this one. Found through
 * the GitHub API with the job's token (`actions: read`); when that cannot be
 * done (no token, no permission, no answer in time) the run's page is used.
 */

async function findJobUrl(req) {
    const { RUNNER_NAME, GITHUB_RUN_ID, GITHUB_RUN_ATTEMPT, GITHUB_REPOSITORY, GITHUB_API_URL } = req.env;
    if (!req.token || !RUNNER_NAME || !GITHUB_RUN_ID || !GITHUB_REPOSITORY?.includes('/') || !GITHUB_API_URL) {
        return undefined;
    }
    try {
        const { octokit } = await gitHubFor(req.token, req.env);
        const [owner, repo] = GITHUB_REPOSITORY.split('/');
        // All pages (a big matrix has more than 100 jobs), within one request-timeout in all.
        const signal = AbortSignal.any([req.signal, AbortSignal.timeout(req.timeoutMs)]);
        const matches = [];
        for (let page = 1; page <= 10; page++) {
            const { data } = await octokit.rest.actions.listJobsForWorkflowRunAttempt({
                owner,
                repo,
                run_id: Number(GITHUB_RUN_ID),
                attempt_number: Number(GITHUB_RUN_ATTEMPT || 1),
                per_page: 100,
                page,
                request: { signal }
            });
            matches.push(...data.jobs.filter(j => j.runner_name === RUNNER_NAME && j.status === 'in_progress'));
            if (data.jobs.length < 100)
                break;
        }
        // Only one job in progress on this runner can be this one; otherwise the run's page.
        if (matches.length !== 1 || !matches[0].html_url) {
            req.log.debug(`{job_url}: ${matches.length} jobs in progress on runner ${RUNNER_NAME}; the run's page is used`);
            return undefined;
        }
        return matches[0].html_url;
    }
    catch (error) {
        const { status, message } = error;
        req.log.debug(`{job_url}: the job's page could not be found (${status ? `HTTP ${status}: ` : ''}${message ?? 'no answer'}; it needs permissions: actions: read); the run's page is used`);
        return undefined;
    }
}

;// CONCATENATED MODULE: ./src/github/sticky.ts
/**
 * What the action's own writings on GitHub share (the pull-request comment,
 * the drift issue): a hidden marker that finds them again, proof that a
 * found one is this token's own, requests bounded in time and by the job's
 * cancel, and a failure told as one line. Nothing here fails the step.
 */

/**
 * The hidden first line that finds the comment again: a digest of the
 * identity, so its size never depends on the target (a gate on 250 checks)
 * and no part of it can close the HTML comment.
 */
function markerOf(identity) {
    const digest = (0,external_node_crypto_.createHash)('sha256').update(JSON.stringify(identity)).digest('hex').slice(0, 32);
    return `<!-- monitoring-action: ${digest} -->`;
}
/**
 * Does a body hold the marker? Anywhere in it, not only on the first line: a
 * person may add a line above it (or below) when editing the issue or
 * comment, and it is still the same one. The marker proves nothing about who
 * wrote the body (anyone can copy it): authorTest does that.
 */
const holdsMarker = (body, marker) => typeof body === 'string' && body.includes(marker);
/** The marker's size and the line break after it: counted against GitHub's limit with the rest of the body. */
const MARKER_BYTES = Buffer.byteLength(markerOf([])) + 1;
/** GitHub refuses a comment body longer than this many characters. */
const MAX_COMMENT_CHARACTERS = 65_536;
/** The login the job's own token (GITHUB_TOKEN) writes as. */
const ACTIONS_BOT = 'github-actions[bot]';
/**
 * Which comments this token wrote, provably. A personal token says who it is
 * (GET /user). An installation token cannot (GET /user answers 403); the
 * job's GITHUB_TOKEN writes as github-actions[bot], so only its comments are
 * ours. Another app's comments are never taken for ours, even with the marker
 * (anyone can copy it): such a token posts a new comment instead.
 */
async function authorTest(octokit, bounded) {
    try {
        const { data } = await octokit.rest.users.getAuthenticated({ request: bounded() });
        return author => author?.login === data.login;
    }
    catch {
        return author => author?.login === ACTIONS_BOT && author?.type === 'Bot';
    }
}
/**
 * Bounds for a run of calls to GitHub: each ends by `timeoutMs`, all of them
 * by `calls` times that, and any when the job is cancelled.
 */
function boundedBy(signal, timeoutMs, calls) {
    const overall = AbortSignal.timeout(timeoutMs * calls);
    return () => ({ signal: AbortSignal.any([signal, overall, AbortSignal.timeout(timeoutMs)]) });
}
/** A failed call to GitHub in words, and whether GitHub refused it (403/404: the token may not). */
function failureOf(error, signal, timeoutMs) {
    const { status, message, name } = error;
    // Octokit reports an aborted fetch as HTTP 500: say what happened instead.
    const stopped = name === 'AbortError' || name === 'TimeoutError' || /operation was aborted/i.test(message ?? '');
    const said = stopped
        ? signal.aborted
            ? 'the job was cancelled'
            : `no answer within request-timeout (${timeoutMs} ms)`
        : `${status ? `HTTP ${status}` : 'no answer'}${message ? `: ${message}` : ''}`;
    return { said, refused: !stopped && (status === 403 || status === 404) };
}
/** A body over GitHub's limit: never sent (GitHub answers 422); a short note instead. */
function withinLimit(marker, markdown, tooLong) {
    const body = `${marker}\n${markdown}`;
    if (body.length <= MAX_COMMENT_CHARACTERS)
        return body;
    return `${marker}\n${tooLong} (${body.length} characters; GitHub takes ${MAX_COMMENT_CHARACTERS}). See the job summary.`;
}

;// CONCATENATED MODULE: ./src/github/drift-issue.ts
/**
 * One GitHub issue about drift (sync-checks with drift-issue): opened with
 * the plan when the service differs from the checks file, updated in place
 * while it does, reopened when drift comes back, closed with a short comment
 * when the plan is empty again. Found again by a hidden marker (the
 * workflow, the checks file, the API) wherever it stands in the body (a
 * person's edit above or below it keeps it the one issue), and only an issue
 * this token wrote counts. Shares the comment's machinery (sticky.ts); never fails the step.
 */


/** Pages of the repository's issues looked through for the marker (100 a page, recently updated first). */
const MAX_PAGES = 10;
/** Open, update, reopen or close the drift issue; its URL, or undefined when none was touched. */
async function keepDriftIssue(req) {
    if (!req.token) {
        req.log.warning('drift-issue: github-token is empty; no issue written. Leave github-token at its default (the job token).');
        return undefined;
    }
    try {
        const { github, octokit } = await gitHubFor(req.token, req.env);
        const { owner, repo } = github.context.repo;
        const bounded = boundedBy(req.signal, req.timeoutMs, 2 * MAX_PAGES + 8);
        const marker = markerOf(req.identity);
        const mine = await authorTest(octokit, bounded);
        /** Every issue of ours with the marker, oldest first (racing runs may each have opened one). */
        const listOurs = async () => {
            const ours = [];
            for (let page = 1; page <= MAX_PAGES; page++) {
                const listed = await octokit.rest.issues.listForRepo({
                    owner,
                    repo,
                    state: 'all',
                    sort: 'updated',
                    direction: 'desc',
                    per_page: 100,
                    page,
                    request: bounded()
                });
                // Pull requests are issues too; only an issue this token wrote, with the marker, is ours.
                ours.push(...listed.data.filter(i => !i.pull_request && holdsMarker(i.body, marker) && mine(i.user)));
                if (!/rel="next"/.test(listed.headers.link ?? ''))
                    break;
            }
            return ours.sort((a, b) => a.number - b.number);
        };
        const closeWith = async (issue, comment) => {
            await octokit.rest.issues.createComment({
                owner,
                repo,
                issue_number: issue.number,
                body: comment,
                request: bounded()
            });
            await octokit.rest.issues.update({
                owner,
                repo,
                issue_number: issue.number,
                state: 'closed',
                state_reason: issue.duplicate ? 'not_planned' : 'completed',
                request: bounded()
            });
        };
        let ours = await listOurs();
        const title = req.title.replace(/[\r\n\u2028\u2029]+/g, ' ');
        if (!req.drift) {
            const open = ours.filter(i => i.state === 'open');
            if (open.length === 0) {
                req.log.info('drift-issue: no drift, and no open drift issue: nothing to do.');
                return ours[0]?.html_url;
            }
            for (const issue of open)
                await closeWith(issue, req.closing);
            req.log.info(`drift-issue: no drift any more; closed ${open.map(i => i.html_url).join(', ')}`);
            return open[0].html_url;
        }
        const body = withinLimit(marker, req.markdown, 'The plan is too long for an issue');
        const create = async () => {
            const { data } = await octokit.rest.issues.create({ owner, repo, title, body, request: bounded() });
            req.log.info(`drift-issue: opened ${data.html_url}`);
            return { number: data.number, state: 'open', html_url: data.html_url };
        };
        if (ours.length === 0) {
            const made = await create();
            // Racing runs may have opened one at the same time: the oldest is the issue, every run says so.
            ours = await listOurs();
            if (!ours.some(i => i.number === made.number))
                ours = [...ours, made].sort((a, b) => a.number - b.number);
            if (ours[0].number === made.number)
                return made.html_url;
        }
        const [issue, ...others] = ours;
        let url = issue.html_url;
        try {
            const reopen = issue.state !== 'open';
            await octokit.rest.issues.update({
                owner,
                repo,
                issue_number: issue.number,
                title,
                body,
                ...(reopen ? { state: 'open' } : {}),
                request: bounded()
            });
            req.log.info(`drift-issue: ${reopen ? 'drift is back; reopened' : 'updated'} ${issue.html_url}`);
        }
        catch (error) {
            // Not ours to edit after all (GitHub says so): open a new one rather than none.
            const status = error.status;
            if (!(status === 403 || status === 404 || status === 410 || status === 422))
                throw error;
            req.log.info(`drift-issue: GitHub refused to edit issue #${issue.number} (HTTP ${status}); opening a new one.`);
            url = (await create()).html_url;
        }
        // Others of ours still open (a racing run's, or one left by a run that stopped): closed as duplicates.
        for (const other of others.filter(i => i.state === 'open')) {
            await closeWith({ ...other, duplicate: true }, `Duplicate of #${issue.number}, opened at the same time by another run; the drift is tracked there.`);
            req.log.info(`drift-issue: closed ${other.html_url} as a duplicate of #${issue.number}`);
        }
        return url;
    }
    catch (error) {
        const { said, refused } = failureOf(error, req.signal, req.timeoutMs);
        req.log.warning(refused
            ? `drift-issue: GitHub refused the issue (${said}). Give the job "permissions: issues: write" (and make sure issues are enabled for the repository). The step goes on.`
            : `drift-issue: the issue could not be written (${said}). The step goes on.`);
        return undefined;
    }
}

;// CONCATENATED MODULE: ./src/github/pr-comment.ts
/**
 * One sticky comment on the pull request: found again by a hidden marker
 * (the workflow, job, operation and target), edited in place on re-runs.
 * Through @actions/github's Octokit, so GITHUB_API_URL (GitHub Enterprise)
 * and the runner's proxy settings apply. A comment is a courtesy: nothing here
 * ever fails the step; GitHub refusing it (a fork's read-only token) is a
 * warning that names the fix.
 */



/** The events that have a pull request to comment on. */
const PULL_REQUEST_EVENTS = ['pull_request', 'pull_request_target'];
/** Pages of comments looked through for the marker (100 a page). */
const pr_comment_MAX_PAGES = 50;
/**
 * Create or update the step's comment on the pull request; its URL, or
 * undefined when there is none (another event, no token, GitHub refused).
 */
async function commentOnPullRequest(req) {
    const event = req.env.GITHUB_EVENT_NAME ?? '';
    if (!PULL_REQUEST_EVENTS.includes(event)) {
        req.log.notice(`pr-comment: this is a ${event || 'run without an event'}, not a pull_request event; no comment written.`);
        return undefined;
    }
    if (!req.token) {
        req.log.warning('pr-comment: github-token is empty; no comment written. Leave github-token at its default (the job token) or pass a token that may write pull-request comments.');
        return undefined;
    }
    try {
        const { github, octokit } = await gitHubFor(req.token, req.env);
        const number = github.context.payload.pull_request?.number;
        if (typeof number !== 'number') {
            req.log.warning('pr-comment: the event payload names no pull request; no comment written.');
            return undefined;
        }
        const { owner, repo } = github.context.repo;
        // Each call ends by request-timeout, all of them by three times that, and any when the job is cancelled.
        const bounded = boundedBy(req.signal, req.timeoutMs, 3);
        const marker = markerOf(req.identity);
        const mine = await authorTest(octokit, bounded);
        const body = withinLimit(marker, req.markdown, 'The result is too long for a comment');
        // Page by page (Octokit's paginate.iterator drops the per-request signal): until the marker or the last page.
        let existing;
        for (let page = 1; page <= pr_comment_MAX_PAGES && existing === undefined; page++) {
            const listed = await octokit.rest.issues.listComments({
                owner,
                repo,
                issue_number: number,
                per_page: 100,
                page,
                request: bounded()
            });
            // Only a comment this token wrote: anyone can post a comment that starts with the marker.
            existing = listed.data.find(comment => holdsMarker(comment.body, marker) && mine(comment.user))?.id;
            if (!/rel="next"/.test(listed.headers.link ?? ''))
                break;
        }
        const create = async () => (await octokit.rest.issues.createComment({ owner, repo, issue_number: number, body, request: bounded() })).data;
        let written;
        let edited = existing !== undefined;
        try {
            written =
                existing === undefined
                    ? await create()
                    : (await octokit.rest.issues.updateComment({ owner, repo, comment_id: existing, body, request: bounded() }))
                        .data;
        }
        catch (error) {
            // The comment found is not ours to edit after all (GitHub says so): post a new one rather than none.
            const status = error.status;
            if (existing === undefined || !(status === 403 || status === 404 || status === 422))
                throw error;
            req.log.info(`pr-comment: GitHub refused to edit comment ${existing} (HTTP ${status}); posting a new one.`);
            written = await create();
            edited = false;
        }
        req.log.info(`pr-comment: ${edited ? 'updated' : 'wrote'} ${written.html_url}`);
        return written.html_url;
    }
    catch (error) {
        const { said, refused } = failureOf(error, req.signal, req.timeoutMs);
        if (refused) {
            req.log.warning(`pr-comment: GitHub refused the comment (${said}). The token may not write to this pull request: give the job "permissions: pull-requests: write"; a pull request from a fork gets a read-only token (comment from a pull_request_target or workflow_run job instead). The step goes on.`);
        }
        else {
            req.log.warning(`pr-comment: the comment could not be written (${said}). The step goes on.`);
        }
        return undefined;
    }
}

;// CONCATENATED MODULE: ./src/step/github.ts






function gitHubSide(facts) {
    let jobUrl;
    const { config, env, log, signal } = facts;
    return {
        jobUrl: () => (jobUrl ??= findJobUrl({ token: config.githubToken, env, signal, timeoutMs: config.requestTimeoutMs, log })),
        comment: summary => pullRequestComment(facts, summary),
        driftIssue: (summary, drift, failed) => driftIssue(facts, summary, drift, failed)
    };
}
/** A link to the run, in words a person reads (the workflow's name defused): "the Deploy run". */
function runLink(run) {
    const name = defused(markdownText(run.workflow || 'the workflow'));
    return run.runUrl ? `[${name} run](${encodeURI(run.runUrl).replace(/\)/g, '%29')})` : `${name} run`;
}
/**
 * drift-issue: the plan as the body of one issue, opened or updated while
 * the service differs from the checks file, closed when it does not.
 */
async function driftIssue(facts, summary, drift, failed) {
    const { config, env, log, signal, secrets } = facts;
    if (signal.aborted)
        return undefined;
    const run = await facts.runContext();
    const file = config.checksFile ?? '';
    const where = `the checks file \`${file.replace(/`/g, "'")}\``;
    const api = defused(markdownText(config.baseUrl));
    const seen = `The monitoring service (${api}) differs from ${where}, as found by the ${runLink(run)}.`;
    const intro = config.dryRun
        ? `${seen} Run sync-checks to put the file's values back, or change the file to keep the service's. This issue is updated while the drift lasts and closed when it is gone.\n\n`
        : failed
            ? `${seen} Its sync did not apply the whole plan (refused, or stopped half-way: see each change's outcome below), so the drift may remain. This issue is closed when a sync finds no drift.\n\n`
            : `The monitoring service (${api}) differed from ${where} when the ${runLink(run)} planned the sync below, which then put the file's values back. Someone or something changed the service outside the file: change the file to keep such a change. This issue is closed when a sync finds no drift.\n\n`;
    const footer = `\n<sub>Written by the ${runLink(run)}.</sub>\n`;
    const room = PR_COMMENT.maxBytes - Buffer.byteLength(intro) - Buffer.byteLength(footer) - MARKER_BYTES;
    return keepDriftIssue({
        token: config.githubToken,
        identity: ['drift-issue', env.GITHUB_WORKFLOW ?? '', file, config.baseUrl],
        title: `Monitoring drift: ${file}`,
        drift,
        markdown: intro + renderSummary(summary, config.operation, secrets, { ...PR_COMMENT, maxBytes: room }) + footer,
        closing: `No drift any more: the service matches \`${file.replace(/`/g, "'")}\` again, as found by the ${runLink(run)}. Closing.`,
        log,
        signal,
        timeoutMs: config.requestTimeoutMs,
        env
    });
}
/**
 * pr-comment: the step's summary as one sticky comment on the pull request
 * (sync-checks' plan, the gate's result), written whatever the outcome so the
 * reviewer sees a refusal too. Never fails the step.
 */
async function pullRequestComment(facts, summary) {
    const { config, env, log, signal, secrets } = facts;
    const target = entryOf(config.operation).commentTarget;
    if (!target) {
        log.warning(`pr-comment applies to sync-checks and wait-for-check, not ${config.operation}; no comment written.`);
        return undefined;
    }
    if (signal.aborted)
        return undefined;
    const run = await facts.runContext();
    const footer = run.runUrl ? `\n<sub>Written by ${runLink(run)}.</sub>\n` : '';
    // GitHub counts the whole body against its 65,536 characters: the marker and the footer too.
    const room = PR_COMMENT.maxBytes - Buffer.byteLength(footer) - MARKER_BYTES;
    return commentOnPullRequest({
        token: config.githubToken,
        // The API too: matrix legs of one job that sync one file to two services keep a comment each.
        identity: [env.GITHUB_WORKFLOW ?? '', env.GITHUB_JOB ?? '', config.operation, target(config), config.baseUrl],
        markdown: renderSummary(summary, config.operation, secrets, { ...PR_COMMENT, maxBytes: room }) + footer,
        log,
        signal,
        timeoutMs: config.requestTimeoutMs,
        env
    });
}

;// CONCATENATED MODULE: ./src/main.ts













async function run(deps = defaultDependencies(), stage = 'main') {
    const runner = deps.core;
    const startedAt = deps.clock.now();
    const secrets = [];
    const log = actionLog(runner, secrets);
    const controller = new AbortController();
    const stopListening = onCancel(deps, log, controller);
    let failOnError = true;
    let jobSummary = true;
    let operation = 'unknown';
    let config;
    let summary;
    let outputs = {};
    let github;
    try {
        const raw = readInputs(name => runner.getInput(name));
        // The key and the GitHub token are masked before anything else can print them:
        // also each line of one pasted with line breaks, so no line of it is ever shown.
        for (const key of [raw['api-key'] ?? '', raw['github-token'] ?? '']) {
            for (const line of new Set([key, ...key.split(/\r?\n|\r/).map(part => part.trim())])) {
                addSecret(runner, secrets, line, 1);
            }
        }
        failOnError = failOnErrorOf(raw);
        jobSummary = raw['job-summary']?.trim().toLowerCase() !== 'false';
        const named = raw.operation?.trim() ?? '';
        // Only a known name reaches the summary: the input itself could hold anything.
        operation = isOperationName(named) ? named : 'unknown';
        if (stage === 'post') {
            summary = await post(deps, raw, log, controller.signal, secrets);
            return;
        }
        await loadParsers(raw);
        config = parseConfig(raw);
        github = gitHubSide({ config, env: deps.env, runContext: deps.runContext, log, signal: controller.signal, secrets });
        jobSummary = config.jobSummary;
        for (const unused of inputsNotApplying(raw, config.operation))
            log.warning(`${unused}.`);
        const statusWarning = expectedStatusWarning(config);
        if (statusWarning)
            log.warning(`${statusWarning}.`);
        const ctx = contextFor(deps, config, log, controller.signal, startedAt, secrets, github);
        if (config.dryRun)
            log.info('dry-run: writes are printed, not sent.');
        const entry = entryOf(config.operation);
        const result = await entry.run(ctx);
        outputs = result.outputs;
        summary = result.summary;
        log.info([summary.title, ...summary.lines].join(' - '));
        if (entry.writes && outputs.changed === undefined)
            outputs.changed = false;
        if (result.gateClosed)
            outputs.error = result.gateClosed;
        writeOutputs(runner.setOutput, outputs, secrets);
        if (result.gateClosed)
            log.fail(result.gateClosed);
    }
    catch (error) {
        const hint = hintFor(error, deps.env, config);
        const message = redact(hint ? messageOf(error).replace(/\.$/, '') + hint : messageOf(error), secrets);
        debugStack(log, error);
        const known = error instanceof OperationError ? error.outputs : {};
        const fallback = isOperationName(operation) ? (entryOf(operation).errorOutputs ?? {}) : {};
        outputs = { ...fallback, ...outputs, ...known, error: message };
        writeOutputs(runner.setOutput, outputs, secrets);
        summary = error instanceof OperationError && error.summary ? error.summary : failureSummary(message, error);
        if (failOnError)
            log.fail(message, placeOf(error));
        else
            log.warning(`${message} (fail-on-error is false: the step continues)`, placeOf(error));
    }
    finally {
        // The job summary first, then the comment: a cancel during the comment (the signals are still
        // heard, and abort it) cannot lose the summary.
        if (jobSummary && summary) {
            try {
                await runner.summary.addRaw(renderSummary(summary, operation, secrets)).write();
            }
            catch (error) {
                log.warning(`The job summary could not be written: ${messageOf(error)}`);
            }
        }
        if (config?.prComment && summary && github) {
            try {
                const url = await github.comment(summary);
                if (url)
                    writeOutputs(runner.setOutput, { 'comment-url': url }, secrets);
            }
            catch (error) {
                log.warning(`pr-comment: the comment could not be written (${messageOf(error)}). The step goes on.`);
            }
        }
        if (config?.driftIssue && config.operation === 'sync-checks' && summary && github) {
            try {
                if (typeof outputs.drift !== 'boolean') {
                    log.info('drift-issue: the plan was not made (the step failed before it), so the drift issue is left as it is.');
                }
                else {
                    const url = await github.driftIssue(summary, outputs.drift, outputs.error !== undefined);
                    if (url)
                        writeOutputs(runner.setOutput, { 'issue-url': url }, secrets);
                }
            }
            catch (error) {
                log.warning(`drift-issue: the issue could not be written (${messageOf(error)}). The step goes on.`);
            }
        }
        stopListening();
    }
}
/**
 * The post step (runs.post), run when the job ends whatever its outcome: the
 * operation's registered post step, with the state its main step saved (for
 * pause-check with auto-resume: resume the checks it paused). Quiet when
 * there is nothing to do.
 */
async function post(deps, raw, log, signal, secrets) {
    const named = raw.operation?.trim() ?? '';
    const step = isOperationName(named) ? entryOf(named).post : undefined;
    const saved = step ? deps.core.getState(step.state) : '';
    if (!step || saved === '')
        return undefined;
    await loadParsers(raw);
    const config = parseConfig(raw);
    const github = gitHubSide({ config, env: deps.env, runContext: deps.runContext, log, signal, secrets });
    const ctx = contextFor(deps, config, log, signal, deps.clock.now(), secrets, github);
    return step.run(ctx, saved);
}

;// CONCATENATED MODULE: ./src/index.ts


// The runner starts dist/post.js for the post step (action.yml runs.post); dist/post.js only imports
// this file. The stage comes from the file the runner started, never from the environment.
void run(defaultDependencies(), (0,external_node_path_namespaceObject.basename)(process.argv[1] ?? '') === 'post.js' ? 'post' : 'main');


//# sourceMappingURL=index.js.map