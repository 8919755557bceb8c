/** The lazy `yaml` (yaml.cjs) has the real package's types. */
import yaml = require('yaml')
export = yaml
